module github.com/toolguard/toolguard/bindings/go

go 1.19
