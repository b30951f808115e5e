"""Lock-outs that lock out attackers (issue #31, item 4): failed log-ins block the
(account, address) pair and the address, never the account itself; an account that
failed often is only slowed, from every address, by a short bounded delay."""

import time

import pytest

from core import throttling
from tests.games.factories import HumanPlayerFactory
from tests.rates import set_rates

pytestmark = pytest.mark.django_db

PASSWORD = "correct-horse-battery"
A, B = "203.0.113.10", "198.51.100.20"


@pytest.fixture(autouse=True)
def _cache_healthy(monkeypatch):
    monkeypatch.setattr(throttling, "_health", throttling._CacheHealth())


@pytest.fixture(autouse=True)
def _short_delay(settings):
    settings.LOGIN_SLOW_DELAY_S = 0.05  # the slow-down is measured in its own test


def _login(client, username, password, addr):
    return client.post(
        "/accounts/login/", {"username": username, "password": password}, REMOTE_ADDR=addr
    )


def _logged_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.wsgi_request.session


def test_wrong_passwords_from_one_address_do_not_lock_her_out_from_another(client):
    alice = HumanPlayerFactory().user
    for _ in range(12):  # the default rates: 10 a quarter of an hour per pair
        assert _login(client, alice.username, "wrong", A).status_code == 200
    # The attacker's address is stopped, even with the right password ...
    from_a = _login(client, alice.username, PASSWORD, A)
    assert from_a.status_code == 200
    assert "Too many attempts, try again in 15 minutes." in from_a.content.decode()
    assert "_auth_user_id" not in client.session
    # ... she, from her own address, is not.
    assert _logged_in(_login(client, alice.username, PASSWORD, B))


def test_the_pair_is_blocked_not_the_address_for_everyone(client):
    alice, bob = HumanPlayerFactory().user, HumanPlayerFactory().user
    for _ in range(10):
        _login(client, alice.username, "wrong", A)
    assert "Too many attempts" in _login(client, alice.username, PASSWORD, A).content.decode()
    # Another account from the same address (a club's shared connection) still logs in.
    assert _logged_in(_login(client, bob.username, PASSWORD, A))


def test_the_address_is_blocked_after_guessing_many_accounts(client, settings):
    set_rates(settings, login_address="5/15min")
    bob = HumanPlayerFactory().user
    for i in range(5):
        _login(client, f"someone{i}", "wrong", A)
    blocked = _login(client, bob.username, PASSWORD, A)
    assert "Too many attempts, try again in 15 minutes." in blocked.content.decode()
    assert _logged_in(_login(client, bob.username, PASSWORD, B))


def test_guesses_from_many_addresses_slow_the_account_but_never_block_it(client, settings):
    settings.LOGIN_SLOW_DELAY_S = 0.4
    alice = HumanPlayerFactory().user
    started = time.monotonic()
    for i in range(10):  # the account's own rate: 10 a quarter of an hour
        assert _login(client, alice.username, "wrong", f"10.1.0.{i}").status_code == 200
    assert time.monotonic() - started < 0.4 * 5  # no delay before the account's rate is passed
    assert throttling.login_delay(alice.username) == 0.4
    started = time.monotonic()
    response = _login(client, alice.username, PASSWORD, "10.2.0.1")
    assert _logged_in(response)  # the right password from a new address still works
    assert time.monotonic() - started >= 0.4  # ... after the wait
    # The name is matched as typed at log-in: case and spaces do not dodge the count.
    assert throttling.login_delay(f"  {alice.username.upper()} ") == 0.4
    assert throttling.login_delay("somebody-else") == 0.0


def test_the_delay_is_bounded(settings):
    settings.LOGIN_SLOW_DELAY_S = 30
    set_rates(settings, login_account="0/15min")  # every account counts as slowed
    assert throttling.login_delay("anyone") == throttling.MAX_SLOW_DELAY_S == 2.0
