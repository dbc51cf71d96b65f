"""Icons, the .desktop file, AppStream metainfo and translations, shipped inside the package."""
