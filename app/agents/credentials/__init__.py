"""Saved values of `env_var` sign-in methods: the OS keychain, or an owner-only file."""
