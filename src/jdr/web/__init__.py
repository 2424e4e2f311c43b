"""`jdr serve`: the web table, a campaign the whole table reaches from a browser.

`jdr.web.app.create_app` builds the FastAPI application; routes stay thin over the services the
CLI calls (`jdr.journal.service`, `jdr.access`, …) and render Jinja2 templates (autoescaped) or
the CLI's JSON answers (`jdr.answers`).
"""
