"""The configuration file: model, YAML with positions, validation, watching, ConfigService."""
