"""The permission inbox and being told (issue 17) as the page calls them: every channel's
pending permission requests, the "always allow" rules, and the unread counts (app/attention)."""
