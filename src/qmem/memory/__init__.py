"""The memory layer: tools that keep an agent's memory small at session start and findable
later. Built on the engine (markdown, analysis, search); never imports the CLI."""
