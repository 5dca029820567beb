"""Developer tools: the Chromium the browser tests drive, the web table's screenshots."""
