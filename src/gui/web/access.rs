//! Who may use `ludus web`: requests must name this machine in `Host` (against DNS
//! rebinding), and a request that changes the game must come from the server's own page or
//! from a program that is not a browser (against other web sites posting to it).

/// The names this machine goes by in `Host` and `Origin`.
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

/// Whether an `Origin` value is this server's own page: `http://` and one of this machine's
/// names with the server's `port`. Browsers send `Origin` with every `POST`; programs that
/// are not browsers (curl, scripts) send none, and those are let through.
pub fn same_origin(origin: Option<&str>, port: u16) -> bool {
    let Some(origin) = origin else {
        return true;
    };
    let Some(authority) = origin.strip_prefix("http://") else {
        return false;
    };
    let (name, given) = name_and_port(authority);
    let origin_port = match given {
        Some(p) => p.parse::<u16>().ok(),
        None => Some(80),
    };
    LOCAL_NAMES.contains(&name.as_str()) && origin_port == Some(port)
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

    #[test]
    fn only_the_servers_own_page_is_an_origin() {
        for origin in [
            "http://127.0.0.1:8080",
            "http://localhost:8080",
            "http://LocalHost:8080",
            "http://[::1]:8080",
        ] {
            assert!(same_origin(Some(origin), 8080), "{origin}");
        }
        assert!(same_origin(None, 8080), "no Origin: not a browser");
        assert!(same_origin(Some("http://localhost"), 80));
        for origin in [
            "http://127.0.0.1:8081",
            "http://localhost",
            "https://127.0.0.1:8080",
            "http://example.com:8080",
            "http://127.0.0.1:8080.evil.com",
            "http://127.0.0.1:8080/",
            "http://127.0.0.1:99999999",
            "null",
            "",
        ] {
            assert!(!same_origin(Some(origin), 8080), "{origin}");
        }
    }
}
