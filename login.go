package main

import "errors"

func runLogin(args []string) error  { return errors.New("login: not built yet") }
func runLogout(args []string) error { return errors.New("logout: not built yet") }
