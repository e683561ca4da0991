//! Who may use `ludus web`: requests must name this machine in `Host` (against DNS
//! rebinding).

/// The names this machine goes by in `Host`.
const LOCAL_NAMES: [&str; 3] = ["127.0.0.1", "localhost", "[::1]"];

/// Splits `host[:port]` into the lowercase name and the port, if one is given.
fn name_and_port(authority: &str) -> (String, Option<&str>) {
    match authority.rsplit_once(':') {
        Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) => {
            (name.to_ascii_lowercase(), Some(port))
        }
        _ => (authority.to_ascii_lowercase(), None),
    }
}

/// Whether a `Host` value names this machine: `127.0.0.1`, `localhost` or `[::1]`, any port.
pub fn local_host(host: Option<&str>) -> bool {
    host.is_some_and(|host| LOCAL_NAMES.contains(&name_and_port(host).0.as_str()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_this_machine_is_a_host() {
        for host in [
            "127.0.0.1:8080",
            "localhost",
            "LOCALHOST:1",
            "[::1]:9",
            "[::1]",
        ] {
            assert!(local_host(Some(host)), "{host}");
        }
        for host in [
            "example.com",
            "127.0.0.1.nip.io:8080",
            "localhost.evil:80",
            "",
        ] {
            assert!(!local_host(Some(host)), "{host}");
        }
        assert!(!local_host(None));
    }
}
