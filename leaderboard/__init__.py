"""The web side of the leaderboard: results read through the engine, tables, figures, the Gradio UI."""
