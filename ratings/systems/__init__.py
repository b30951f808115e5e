"""Rating systems as pure functions (no Django): Elo for multiplayer tables, OpenSkill."""
