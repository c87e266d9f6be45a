"""Cut documents into overlapping chunks small enough to embed and to quote.

Embedding models read a limited window (MiniLM: 256 word pieces, roughly 1,000 characters), and a
generator quotes better from short passages. LangChain's ``RecursiveCharacterTextSplitter`` cuts at the
largest natural boundary that fits (its default separators: paragraph break, then line break, then
space, then any character), and repeats ``chunk_overlap`` characters between neighbours so a sentence cut
in two still appears whole once.

Every chunk gets ``metadata["id"] = "<doc id>#<n>"`` (n counts from 0 within its document),
``metadata["parent_id"]`` (the source document's id) and ``metadata["start_index"]`` (its character offset).

Simplifications: sizes are in characters, not model tokens, so a chunk of dense notation can still
overflow the embedder's window a little (the model then truncates it); there is no sentence-end
separator, so a long paragraph can be cut mid-sentence (the overlap keeps most such sentences whole in
one of the two chunks). Adding ``". "`` to the separators would change the chunks every MaxP figure in
the README was measured on, so it is left as measured.
"""

from __future__ import annotations

from collections.abc import Sequence

from langchain_core.documents import Document
from langchain_text_splitters import RecursiveCharacterTextSplitter


def source_id(doc: Document, position: int) -> str:
    """A document's id: ``metadata["id"]``, else ``Document.id``, else its position in the input list."""
    key = doc.metadata.get("id") or doc.id
    return str(key) if key is not None else str(position)


def split_documents(docs: Sequence[Document], chunk_size: int = 1000, chunk_overlap: int = 150) -> list[Document]:
    """Split documents into chunks with ids ``<doc id>#<n>`` and the parent id kept in metadata.

    >>> doc = Document("One sentence here. " * 10, metadata={"id": "doc7", "title": "T"})
    >>> chunks = split_documents([doc], chunk_size=80, chunk_overlap=20)
    >>> [c.metadata["id"] for c in chunks]
    ['doc7#0', 'doc7#1', 'doc7#2']
    >>> chunks[1].metadata["parent_id"], chunks[1].metadata["title"]
    ('doc7', 'T')
    """
    if chunk_size < 1:
        raise ValueError(f"chunk_size must be at least 1 character, got {chunk_size}")
    if not 0 <= chunk_overlap < chunk_size:
        raise ValueError(f"chunk_overlap must be >= 0 and smaller than chunk_size ({chunk_size}), got {chunk_overlap}")
    splitter = RecursiveCharacterTextSplitter(chunk_size=chunk_size, chunk_overlap=chunk_overlap, add_start_index=True)
    chunks: list[Document] = []
    for position, doc in enumerate(docs):
        parent = source_id(doc, position)
        pieces = splitter.split_documents([Document(page_content=doc.page_content)])
        for n, piece in enumerate(pieces):
            start = piece.metadata["start_index"]  # found by the splitter, correct even for repeated text
            metadata = {**doc.metadata, "id": f"{parent}#{n}", "parent_id": parent, "chunk": n, "start_index": start}
            chunks.append(Document(page_content=piece.page_content, metadata=metadata, id=f"{parent}#{n}"))
    return chunks
