"""Events from the backend to the page: names (SPEC verbatim), payload models and the bus."""
