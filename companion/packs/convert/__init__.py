"""Tables players already keep, to and from table packs: Obsidian markdown lookup tables, Datasworn
oracles, Foundry VTT roll tables.

- :mod:`.common`: reading a source file (bounded, checked), a pack's data written as TOML, and a
  refusal of the made pack turned back into the source file's line;
- :mod:`.markdown`, :mod:`.datasworn`, :mod:`.foundry`: each format's reader (and writer, for
  markdown and Foundry);
- :mod:`.jsonlines`: the line of a value in a JSON text, for refusals.

An import builds the pack's data (what ``tomllib`` would read from a pack), writes it as TOML and
reads that back with :func:`companion.packs.pack.parse_pack`: the same checks, the same bounds and
the same refusals as a pack written by hand, nothing written until all of it passes. What a source
has that packs cannot express is said in :attr:`Imported.notes`, one line each.
"""
