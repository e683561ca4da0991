//! What the API answers when a request cannot be done: an HTTP status and a message for the
//! person. Every layer of the server returns it, so it sits below them all and imports
//! nothing of theirs.

/// An action the page asked for that cannot be done, with the HTTP status to answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// 400 for a bad request, 404 for a session the server does not know, 409 for one that
    /// does not fit the game's state, 500 for an engine failure, 503 for no room.
    pub status: u16,
    /// What to tell the person.
    pub message: String,
}

impl ApiError {
    /// An error with `status` and `message`.
    pub fn new(status: u16, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    /// 400: a request that is wrong whatever the game's state.
    pub fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(400, message)
    }

    /// 409: a request that does not fit the game's state now.
    pub fn conflict(message: impl Into<String>) -> ApiError {
        ApiError::new(409, message)
    }

    /// 500: the engine failed (`what` is its failure).
    pub fn engine(what: impl std::fmt::Display) -> ApiError {
        ApiError::new(500, format!("the engine failed: {what}"))
    }
}
