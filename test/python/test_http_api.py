"""
The continuation flow from Python: a Python agent stores a 5 MB tool result with spillway serve
over HTTP, is shown the first characters and the truncation marker, and pages the rest back
with continuation-style reads (get_continuation by tool_call_id and offset) until the marker
is gone. The pages joined are the stored output, byte for byte (SHA-256).

Runs the built CLI (`node dist/cli/main.js serve`); `npm run build` first.
"""

import hashlib
import json
import os
import re
import subprocess
import tempfile

import pytest
import requests

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MARKER = re.compile(
    r'\n\[truncated — showing (\d+)/(\d+) chars\. Call get_continuation with tool_call_id="([^"]+)"(?: offset=(\d+))? to read more\]$'
)


@pytest.fixture(scope="module")
def server():
    home = tempfile.mkdtemp(prefix="spillway-py-")
    proc = subprocess.Popen(
        ["node", os.path.join(ROOT, "dist/cli/main.js"), "--home", home, "--json", "serve", "--port", "0"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"spillway serve did not start: {proc.stderr.read()}")
        url = json.loads(line)["url"]
        yield url
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def make_output(size: int) -> bytes:
    lines = []
    total = 0
    n = 0
    while total < size:
        n += 1
        line = f"{n:07d} état=ok — payload {'x' * (n % 50)} ✓\n"
        lines.append(line)
        total += len(line.encode("utf-8"))
    return "".join(lines).encode("utf-8")[:size].decode("utf-8", errors="ignore").encode("utf-8")


def test_store_5mb_and_page_back_with_continuations(server):
    body = make_output(5 * 1024 * 1024)
    params = {
        "session": "py-agent",
        "tool": "transcribe_audio",
        "args": json.dumps({"file": "meeting.wav"}),
        "callId": "call_abc123",
        "surface": "get_continuation",
        "continuationChars": "4000",
    }
    stored = requests.post(
        f"{server}/v1/outputs",
        params=params,
        data=body,
        headers={"content-type": "application/octet-stream"},
        timeout=60,
    )
    assert stored.status_code == 201, stored.text
    answer = stored.json()
    record = answer["output"]
    assert record["byteSize"] == len(body)
    assert record["sha256"] == hashlib.sha256(body).hexdigest()

    # What the model is shown: the first 4000 characters and the seed's exact marker.
    shown = answer["handleMessage"]
    match = MARKER.search(shown)
    assert match, shown[-300:]
    assert match.group(1) == "4000" and match.group(3) == "call_abc123" and match.group(4) is None
    parts = [shown[: match.start()]]
    offset = int(match.group(1))

    # Continuation-style reads, as get_continuation(tool_call_id, offset) answers them.
    reads = 0
    while True:
        page = requests.get(
            f"{server}/v1/sessions/py-agent/continuation",
            params={"tool_call_id": "call_abc123", "offset": offset, "chars": 262144},
            timeout=60,
        )
        assert page.status_code == 200, page.text
        text = page.json()["text"]
        reads += 1
        match = MARKER.search(text)
        if not match:
            parts.append(text)
            break
        parts.append(text[: match.start()])
        offset = int(match.group(4))
    whole = "".join(parts).encode("utf-8")
    assert reads > 10
    assert len(whole) == len(body)
    assert hashlib.sha256(whole).hexdigest() == record["sha256"]

    # The raw bytes, by Range, agree.
    tail = requests.get(f"{server}/v1/outputs/{record['id']}/raw", headers={"Range": "bytes=-1000"}, timeout=60)
    assert tail.status_code == 206
    assert tail.content == body[-1000:]


def test_errors_are_json_naming_the_field(server):
    bad = requests.get(f"{server}/v1/sessions/py-agent/continuation", params={"offset": 5}, timeout=10)
    assert bad.status_code == 400
    error = bad.json()
    assert error["code"] == "INVALID_ARGUMENT"
    assert error["details"]["fields"][0]["field"] == "query.tool_call_id"
    unknown = requests.get(
        f"{server}/v1/sessions/py-agent/continuation", params={"tool_call_id": "call_nope"}, timeout=10
    )
    assert unknown.json() == {"text": '{"error":"Unknown tool_call_id: call_nope"}', "isError": True}
