"""The "Since you last looked" page: what the agents changed, side by side, with rollback."""
