"""The front ends of the engine: agents, game logs, scenarios, conformance vectors, the state schema."""
