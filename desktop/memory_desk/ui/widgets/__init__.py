"""The pages' shared widgets: cell painting, banners, the topic question and display helpers.
Pages import these; nothing here imports a page."""
