"""Version stamps: the package, the content language, and the bundle format other engines load."""

__version__ = "0.1.0"

# The content language. Bumped when a change could break existing content files.
DSL_VERSION = 1

# The compiled bundle format (semantic versioning): MAJOR for changes that break readers,
# MINOR for additions readers may ignore, PATCH for fixes. Schemas in schemas/ carry the same version.
BUNDLE_FORMAT = "maester-bundle"
BUNDLE_FORMAT_VERSION = "1.2.0"
SCHEMA_BASE = f"https://maester.example/schemas/{BUNDLE_FORMAT_VERSION}/"
