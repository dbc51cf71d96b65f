"""Stand-ins for the agents, run as real second processes by the tests."""
