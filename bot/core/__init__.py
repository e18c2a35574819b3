"""What every feature shares and nothing Discord-specific: settings, clock, the names of
things (enums), the stored records, domain errors and the lifecycle of a game."""
