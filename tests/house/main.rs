//! Checks of the repository itself, not of the engine: the layering of `src/`, the places
//! that name a game (its folder and the dispatch points) and the citations of the rules
//! documents.

mod dispatch;
mod doc_citations;
mod layering;
