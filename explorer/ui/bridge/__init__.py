"""The Session seen by Qt: thin QObjects whose calls go to the Session and whose signals say what changed (the
state, the generation, the lesson played)."""
