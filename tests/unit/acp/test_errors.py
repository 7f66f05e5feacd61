"""describe_error: an agent's error as the sentence a person reads, with the agent's own words.

The shapes are the real adapters' (tests/fakes/transcripts/*.jsonl)."""

from __future__ import annotations

from app.acp.errors import AgentRequestError, describe_error, error_details, with_stderr


def test_codex_auth_required_says_the_agent_needs_you_to_sign_in() -> None:
    text = describe_error(AgentRequestError(-32000, "Authentication required"))
    assert text == "the agent needs you to sign in (Authentication required)"


def test_gemini_missing_key_says_sign_in_with_the_agents_explanation() -> None:
    err = AgentRequestError(-32000, "Gemini API key is missing or not configured.")
    text = describe_error(err)
    assert text == "the agent needs you to sign in (Gemini API key is missing or not configured.)"


def test_claude_internal_error_is_said_by_its_details() -> None:
    data = {"details": "Claude Code process exited with code 1"}
    text = describe_error(AgentRequestError(-32603, "Internal error", data))
    assert text == "Claude Code process exited with code 1"


def test_explanation_in_data_message_is_read_without_colour_codes() -> None:
    data = {"message": "\x1b[31mmodel gpt-x not available\x1b[0m"}
    text = describe_error(AgentRequestError(-32603, "Internal error", data))
    assert text == "model gpt-x not available"
    assert "\x1b" not in text


def test_explanation_in_data_error_or_any_string_value_is_read() -> None:
    by_error = AgentRequestError(-32602, "Invalid params", {"error": "unknown mode 'yolo'"})
    by_other = AgentRequestError(-32603, "Internal error", {"code": 7, "reason": "disk full"})
    assert describe_error(by_error) == "unknown mode 'yolo'"
    assert describe_error(by_other) == "disk full"


def test_data_as_a_string_is_the_explanation() -> None:
    text = describe_error(AgentRequestError(-32603, "Internal error", "rate limited"))
    assert text == "rate limited"


def test_a_specific_message_keeps_the_lead_and_adds_new_details() -> None:
    err = AgentRequestError(-32603, "Model overloaded", {"details": "retry in 30 s"})
    assert describe_error(err) == "Model overloaded (retry in 30 s)"


def test_what_is_already_said_is_not_repeated() -> None:
    same = AgentRequestError(-32603, "Model overloaded", {"message": "Model overloaded"})
    contained = AgentRequestError(-32603, "Model overloaded: retry", {"details": "retry"})
    twice = AgentRequestError(-32603, "Internal error", {"message": "boom", "details": "boom"})
    assert describe_error(same) == "Model overloaded"
    assert describe_error(contained) == "Model overloaded: retry"
    assert describe_error(twice) == "boom"


def test_a_generic_error_without_explanation_stays_as_it_is() -> None:
    err = AgentRequestError(-32603, "Internal error", {"code": 3})
    assert describe_error(err) == "Internal error"


def test_colour_codes_in_the_message_itself_are_stripped() -> None:
    err = AgentRequestError(-32603, "\x1b[1mquota exceeded\x1b[22m")
    assert describe_error(err) == "quota exceeded"


def test_stderr_tail_appended_to_a_start_error_has_no_escape_codes() -> None:
    text = with_stderr("the agent exited", ["\x1b[31merror:\x1b[0m no token", "\x1b]0;t\x07ok"])
    assert text == "the agent exited\nerror: no token\nok"


# ---- errors in words (issue 26): the real adapters' shapes of 2026 -----------------------------


def test_an_error_kind_from_data_is_left_out_and_kept_in_the_details() -> None:
    data = {"details": "The model stopped answering", "errorKind": "other"}
    err = AgentRequestError(-32603, "Internal error", data)
    assert describe_error(err) == "The model stopped answering"
    details = error_details(err)
    assert details.startswith("-32603 Internal error {")
    assert '"errorKind":"other"' in details


def test_a_code_in_the_agents_own_message_stays_and_the_kind_in_data_goes() -> None:
    err = AgentRequestError(-32603, "fetch failed (ECONNRESET)", {"kind": "unknown"})
    assert describe_error(err) == "fetch failed (ECONNRESET)"
    assert error_details(err) == '-32603 fetch failed (ECONNRESET) {"kind":"unknown"}'


def test_opencodes_session_api_error_is_its_message_alone() -> None:
    data = {"message": "Rate limit reached", "kind": "session", "name": "APIError"}
    err = AgentRequestError(-32603, "Internal error", data)
    assert describe_error(err) == "Rate limit reached"
    assert '"name":"APIError"' in error_details(err)


def test_the_typescript_sdks_internal_error_prefix_is_left_out() -> None:
    err = AgentRequestError(-32603, "Internal error: API Error: 529 Overloaded")
    assert describe_error(err) == "API Error: 529 Overloaded"
    assert error_details(err) == "-32603 Internal error: API Error: 529 Overloaded"


def test_a_json_error_body_is_said_as_its_message() -> None:
    body = '{"error":{"code":401,"message":"Request had invalid authentication credentials."}}'
    err = AgentRequestError(-32603, "error: " + body)
    assert describe_error(err) == "Request had invalid authentication credentials."
    assert body in error_details(err)


def test_a_json_body_in_a_list_or_nested_in_its_message_is_read_too() -> None:
    inner = '{"error":{"code":429,"message":"Quota exceeded for today."}}'
    listed = AgentRequestError(-32603, '[{"error":{"code":503,"message":"Overloaded."}}]')
    nested = AgentRequestError(-32603, "Internal error", {"message": inner})
    assert describe_error(listed) == "Overloaded."
    assert describe_error(nested) == "Quota exceeded for today."


def test_a_json_body_after_words_of_the_agent_keeps_them() -> None:
    body = '{"error":{"message":"model not found"}}'
    err = AgentRequestError(-32603, f"Failed to generate content: {body}")
    assert describe_error(err) == "Failed to generate content: model not found"


def test_text_that_is_not_a_json_body_stays_as_it_is() -> None:
    err = AgentRequestError(-32603, "bad value {x} in settings")
    assert describe_error(err) == "bad value {x} in settings"
    assert error_details(err) == ""


def test_a_plain_sentence_has_no_details() -> None:
    assert error_details(AgentRequestError(-32603, "quota exceeded")) == ""
    assert error_details(ConnectionError()) == ""
