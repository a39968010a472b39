"""The ground floor every app shares: errors and the API's plumbing, the cache client,
the chart kit, game names, and page sections.

``core`` imports only ``games`` (and Django): every app above it (replays, accounts,
clubs, analytics) takes its shared parts from here, so nothing shared lives in an app
that others must reach up or sideways into. See docs/architecture.md for the floors.
"""
