"""Campaign state, the tracker (commands, events, undo) and TOML persistence. No textual."""
