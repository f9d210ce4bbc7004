"""Parsers: one module per source format, each returning a canonical type.

Every parser stops with :class:`latentlab.errors.DataError` naming the file and the problem
(truncated archive, header disagreeing with the body, id out of range, negative count,
unreadable image) instead of producing a silently wrong result.
"""
