"""Hand-offs (issue 28): in a channel, an agent's finished answer that mentions other members
routes to them as a person's message would, queued behind the turns under way, within the
channel's budget of hand-offs per message of the person (mentions.py, chain.py, material.py;
HandoffService in service.py). The person decides past the budget (Continue) and Stop ends
the chain."""
