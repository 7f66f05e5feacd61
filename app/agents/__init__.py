"""Agents: the supervisor (states, limits, idle stop), AgentService and the built-in agents."""
