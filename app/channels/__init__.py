"""Channels: routing, turns, queues, permissions, and ChannelService."""
