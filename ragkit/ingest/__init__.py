"""Your own documents: ingest a folder of Markdown, text, HTML and PDF into a named collection any graph searches.

>>> from ragkit.ingest import ingest, load_collection         # doctest: +SKIP
>>> print(ingest("my_notes/", collection="notes").summary())  # doctest: +SKIP
>>> notes = load_collection("notes")                          # doctest: +SKIP
>>> build_self_rag_graph(notes)                               # or collection_search("notes")  # doctest: +SKIP

The function API (``ingest``, ``list_collections``, ``delete_collection``, ``load_collection``) is what
the command line (``ragkit ingest``, ``ragkit collections``) calls, and what a server can call.

| module     | concept                                                                  |
|------------|--------------------------------------------------------------------------|
| readers    | one file -> parts (sections, pages) with title / heading / page metadata |
| files      | which files to read: walking, symlinks, size limit, unsupported types    |
| manifest   | hashes and mtimes of what went in, so re-ingest reads only what changed  |
| store      | the collection folder: save atomically, list, delete, load as retriever  |
| pipeline   | ``ingest()``: the steps above, in order                                  |
| command    | ``ragkit ingest`` / ``ragkit collections``                               |
| samples    | test files made on the spot (a real PDF written with pypdf)              |
"""

from __future__ import annotations

from ragkit.ingest.files import MAX_FILE_BYTES, Skipped
from ragkit.ingest.pipeline import IngestError, IngestReport, ingest
from ragkit.ingest.readers import ReadError
from ragkit.ingest.store import (
    Collection,
    CollectionBusy,
    CollectionInfo,
    collections_dir,
    delete_collection,
    list_collections,
    load_collection,
)

__all__ = ["MAX_FILE_BYTES", "Collection", "CollectionBusy", "CollectionInfo", "IngestError", "IngestReport",
           "ReadError", "Skipped", "collections_dir", "delete_collection", "ingest", "list_collections",
           "load_collection"]
