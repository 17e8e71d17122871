package main

import "errors"

func runConsole(args []string) error { return errors.New("console: not built yet") }
