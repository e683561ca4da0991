//! Checks of the repository itself, not of the engine: the layering of `src/` and the
//! citations of the rules documents.

mod doc_citations;
mod layering;
