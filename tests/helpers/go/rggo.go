// rggo: a static Go file tool for the supervised-mode tests (Go makes raw
// system calls, so the preload shim never sees it).
//
//	rggo read F | write F TEXT
//
// Operations run in order; each prints "ok" or "err MESSAGE"; the first
// failure ends the program with status 1.
package main

import (
	"fmt"
	"os"
)

func main() {
	args := os.Args[1:]
	for len(args) >= 2 {
		var err error
		switch args[0] {
		case "read":
			_, err = os.ReadFile(args[1])
			args = args[2:]
		case "write":
			if len(args) < 3 {
				fmt.Println("err usage")
				os.Exit(2)
			}
			err = os.WriteFile(args[1], []byte(args[2]), 0o666)
			args = args[3:]
		default:
			fmt.Println("err usage")
			os.Exit(2)
		}
		if err != nil {
			fmt.Println("err", err)
			os.Exit(1)
		}
		fmt.Println("ok")
	}
}
