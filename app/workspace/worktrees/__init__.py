"""Isolated worktrees (issue 28): a channel member working in a Git worktree of its own folder,
its diff against the commit it was made from, merged back into the folder or discarded."""
