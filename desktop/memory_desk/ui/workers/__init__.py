"""The pages' shared background work: reads run off the window's thread and the write runner
that waits for the agent's lock. Pages import these; nothing here imports a page."""
