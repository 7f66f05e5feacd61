"""`@exposed`: results as the method returns them, arguments checked once, errors made readable."""

from __future__ import annotations

import inspect
import logging
from collections.abc import Iterator

import pytest

from app.core import expose
from app.core.errors import UserError
from app.core.expose import exposed
from app.i18n import set_language
from app.models.agents import AgentInfo


class Service:
    def __init__(self) -> None:
        self.calls: list[tuple[object, ...]] = []

    @exposed
    def Info(self, name: str) -> AgentInfo:
        self.calls.append((name,))
        return AgentInfo(name=name, title=name.title())

    @exposed
    def Create(self, name: str, description: str = "") -> str:
        self.calls.append((name, description))
        return f"{name}: {description}"

    @exposed
    def Count(self, names: list[str], limit: int = 10) -> int:
        return min(len(names), limit)

    @exposed
    def Broken(self) -> None:
        raise KeyError("boom")

    @exposed
    def Slow(self) -> None:
        raise TimeoutError("the agent did not answer in time")

    @exposed
    def Refused(self) -> None:
        raise UserError("no such channel")


@pytest.fixture
def french() -> Iterator[None]:
    set_language("fr")
    yield
    set_language("en")


def test_a_model_result_is_returned_as_the_model() -> None:
    info = Service().Info("demo")
    assert isinstance(info, AgentInfo)
    assert (info.name, info.title) == ("demo", "Demo")


def test_a_wrong_typed_argument_is_refused_naming_the_parameter() -> None:
    service = Service()
    with pytest.raises(UserError, match=r"^`name` must be text$"):
        service.Info(42)  # type: ignore[arg-type]
    assert service.calls == []  # refused before the method runs


def test_the_refusal_is_in_the_language_of_the_app(french: None) -> None:
    with pytest.raises(UserError, match=r"^`name` doit être un texte$"):
        Service().Info(None)  # type: ignore[arg-type]


def test_a_missing_argument_is_refused_naming_the_parameter() -> None:
    with pytest.raises(UserError, match=r"^`name` is missing$"):
        Service().Info()  # type: ignore[call-arg]


def test_a_missing_argument_is_told_in_french_too(french: None) -> None:
    with pytest.raises(UserError, match=r"^il manque `name`$"):
        Service().Create()  # type: ignore[call-arg]


def test_a_wrong_item_of_a_list_is_named_with_its_position() -> None:
    with pytest.raises(UserError, match=r"^`names\[1\]` must be text$"):
        Service().Count(["a", 2])  # type: ignore[list-item]
    with pytest.raises(UserError, match=r"^`limit` must be a whole number$"):
        Service().Count(["a"], "many")  # type: ignore[arg-type]


def test_too_many_or_unknown_arguments_are_refused() -> None:
    with pytest.raises(UserError, match=r"^Service\.Info was given too many arguments$"):
        Service().Info("a", "b")  # type: ignore[call-arg]
    with pytest.raises(UserError, match=r"^Service\.Info has no parameter `title`$"):
        Service().Info(name="a", title="b")  # type: ignore[call-arg]
    with pytest.raises(UserError, match=r"^`name` was given twice$"):
        Service().Info("a", name="b")  # type: ignore[misc]


def test_a_parameter_with_a_default_may_be_left_out() -> None:
    service = Service()
    assert service.Create("room") == "room: "
    assert service.Create(name="room", description="chat") == "room: chat"
    assert service.calls == [("room", ""), ("room", "chat")]


def test_null_for_a_parameter_with_a_default_means_left_out() -> None:
    # The page's bindings pass a left-out argument as `undefined`, which arrives as null.
    assert Service().Create("room", None) == "room: "  # type: ignore[arg-type]


def test_arguments_are_passed_as_validated() -> None:
    assert Service().Count(["a", "b", "c"], "2") == 2  # type: ignore[arg-type]


def test_an_unexpected_exception_becomes_a_readable_error_and_is_logged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    with (
        caplog.at_level(logging.ERROR, logger=expose.__name__),
        pytest.raises(UserError, match=r"^KeyError: 'boom'$"),
    ):
        Service().Broken()
    [record] = [r for r in caplog.records if r.name == expose.__name__]
    assert "Service.Broken failed" in record.getMessage()
    assert record.exc_info is not None and isinstance(record.exc_info[1], KeyError)


def test_a_timeout_becomes_a_user_error_with_its_message() -> None:
    with pytest.raises(UserError, match=r"^the agent did not answer in time$"):
        Service().Slow()


def test_a_user_error_passes_through_unchanged(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.ERROR), pytest.raises(UserError, match=r"^no such channel$"):
        Service().Refused()
    assert not [r for r in caplog.records if r.name == expose.__name__]


def test_the_signature_stays_visible_to_pywebview_and_the_bindings() -> None:
    assert inspect.getfullargspec(Service.Create).args == ["self", "name", "description"]
    assert getattr(Service.Create, "__exposed__", False) is True
