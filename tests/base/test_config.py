from __future__ import annotations

import os

import pytest

from qmem.base import config
from qmem.base.errors import ConfigError, NotFoundError


def test_missing_config_is_empty(tmp_path):
    cfg = config.load()
    assert cfg.collections == {}
    assert cfg.file == str(tmp_path / "config" / "collections.toml")
    assert cfg.data_root == str(tmp_path / "data")
    assert os.path.dirname(cfg.data_dir) == str(tmp_path / "data" / "configs")  # this config's own folder


def test_each_config_file_gets_its_own_data_folder(tmp_path):
    a, b = tmp_path / "agent-a" / "collections.toml", tmp_path / "agent-b" / "collections.toml"
    dirs = {config.load(str(a)).data_dir, config.load(str(b)).data_dir}
    assert len(dirs) == 2 and all(os.path.dirname(d) == str(tmp_path / "data" / "configs") for d in dirs)
    assert os.path.basename(config.load(str(a)).data_dir).startswith("agent-a-")
    assert config.load(str(a)).data_dir == config.load(str(a)).data_dir  # stable
    os.makedirs(tmp_path / "link")
    os.symlink(a.parent, tmp_path / "link" / "to-a")  # another name of the same file: the same folder
    assert config.load(str(tmp_path / "link" / "to-a" / "collections.toml")).data_dir == config.load(str(a)).data_dir


def test_xdg_defaults_when_no_overrides(monkeypatch, tmp_path):
    monkeypatch.delenv("QMEM_CONFIG")
    monkeypatch.delenv("QMEM_DATA")
    assert config.default_config_path() == str(tmp_path / "home" / ".config" / "qmem" / "collections.toml")
    assert config.default_data_dir() == str(tmp_path / "home" / ".local" / "share" / "qmem")


def write(text: str) -> str:
    path = os.environ["QMEM_CONFIG"]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as handle:
        handle.write(text)
    return path


def test_load_expands_paths_and_defaults(tmp_path):
    write('[collections.main]\npath = "~/ws"\n[collections.notes]\npath = "/n"\npatterns = "**/*.md"\nexclude = ["archive/**"]\n')
    cfg = config.load()
    assert cfg.collections["main"].path == str(tmp_path / "home" / "ws")
    assert cfg.collections["main"].patterns == config.DEFAULT_PATTERNS
    assert cfg.collections["notes"].patterns == ["**/*.md"]
    assert cfg.collections["notes"].exclude == ["archive/**"]


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        ("[collections.main\npath = 1", "", "not valid TOML"),
        ("[collections.main]\npath = 3\n", "collections.main.path", "missing or not a string"),
        ("[collections.main]\npath = '/x'\npaterns = ['*.md']\n", "collections.main.paterns", "unknown key"),
        ("[collections.'bad name']\npath = '/x'\n", "collections.bad name", "a name is"),
        ("[collections.main]\npath = '/x'\nexclude = [1]\n", "collections.main.exclude", "list of non-empty strings"),
        ("[search]\nlimit = 0\n", "search.limit", "expected a whole number >= 1"),
        ("colections = 1\n", "colections", "unknown key"),
    ],
)
def test_bad_config_names_file_key_and_problem(text, key, problem):
    path = write(text)
    with pytest.raises(ConfigError) as info:
        config.load()
    message = str(info.value)
    assert path in message and key in message and problem in message
    assert "\n" not in message


def test_non_utf8_config_is_a_clear_error():
    path = os.environ["QMEM_CONFIG"]
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as handle:
        handle.write(b"[collections.main]\npath = '\xff\xfe'\n")
    with pytest.raises(ConfigError, match="not UTF-8|not valid TOML"):
        config.load()


def test_cache_follows_edits():
    write("[collections.a]\npath = '/a'\n")
    assert list(config.load().collections) == ["a"]
    assert list(config.load().collections) == ["a"]  # served from the JSON cache
    write("[collections.b]\npath = '/bb'\n")  # different size → stamp changes
    assert list(config.load().collections) == ["b"]


def test_adding_keeps_user_comments_and_renaming_and_removing_work(tmp_path):
    write("# my notes about qmem\n[search]\nlimit = 5  # fewer results\n")
    cfg = config.load()
    config.add_collection(cfg, config.Collection("main", "/ws", description="agent"))
    text = open(os.environ["QMEM_CONFIG"], encoding="utf-8").read()
    assert "# my notes about qmem" in text and "# fewer results" in text
    cfg = config.load()
    assert cfg.limit == 5 and cfg.collections["main"].description == "agent"
    config.rename_collection(cfg, "main", "work")
    assert list(config.load().collections) == ["work"]
    config.remove_collection(cfg, "work")
    assert config.load().collections == {}
    assert "# my notes about qmem" in open(os.environ["QMEM_CONFIG"], encoding="utf-8").read()


def test_duplicate_and_unknown_names():
    cfg = config.load()
    config.add_collection(cfg, config.Collection("main", "/ws"))
    with pytest.raises(ConfigError, match="already exists"):
        config.add_collection(cfg, config.Collection("main", "/other"))
    with pytest.raises(NotFoundError, match="no collection named 'nope'; known: main"):
        cfg.collection("nope")
    with pytest.raises(ConfigError, match="bad collection name"):
        config.add_collection(cfg, config.Collection("a/b", "/x"))


def test_data_dir_from_config_unless_env_overrides(monkeypatch, tmp_path):
    write(f"data_dir = '{tmp_path}/elsewhere'\n")
    assert config.load().data_root == str(tmp_path / "data")  # QMEM_DATA wins
    monkeypatch.delenv("QMEM_DATA")
    assert config.load().data_root == str(tmp_path / "elsewhere")
    assert config.load().data_dir.startswith(str(tmp_path / "elsewhere" / "configs") + os.sep)


def test_shipped_example_config_is_valid(tmp_path, monkeypatch):
    from ..conftest import ROOT

    example = tmp_path / "collections.toml"
    example.write_text((ROOT / "collections.example.toml").read_text(encoding="utf-8"), encoding="utf-8")
    cfg = config.load(str(example))
    assert cfg.collections["main"].path == str(tmp_path / "home" / "agent" / "workspace")
    assert cfg.lock_timeout == 30 and cfg.limit == 10 and cfg.snippet_lines == 6
