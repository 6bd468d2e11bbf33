IFS=:; X=a:b; {rm,-rf,/}; rm -rf /{etc,usr{1..3}}; rm${IFS}-rf${IFS}/; echo {a..z..2} {01..10}
