"""Reports: text tables, JSON documents and plots for the commands."""
