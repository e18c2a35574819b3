"""The ground floor: what every feature shares and nothing Discord-specific (settings,
clock, the names of things (enums), the stored records, domain errors). It imports nothing
else of the bot; ``tests/test_layers.py`` holds it to that."""
