// Files as attack surface: outputs never write through a link or replace what is not a regular
// file; debug aids in shared directories never follow links; bad paths are said, not ignored.
#include "jit/emit/emit.hpp"
#include "jit/profile/env_switch.hpp"
#include "jit/profile/files.hpp"
#include "tests/support/support.hpp"

#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

namespace cjit::detail {
namespace {

namespace fs = std::filesystem;

class files : public ::testing::Test {
protected:
  files() : dir_(fs::path(testing::TempDir()) / ("clearjit_files_" + std::to_string(getpid()))) {
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  ~files() override {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
  std::string path(const std::string &name) const { return (dir_ / name).string(); }
  std::string write(const std::string &name, const std::string &text) const {
    std::ofstream(path(name), std::ios::binary) << text;
    return path(name);
  }
  static std::string read(const std::string &p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }
  //! Names in the directory other than `keep`: temporaries left behind show here.
  std::vector<std::string> names() const {
    std::vector<std::string> out;
    for (const auto &e : fs::directory_iterator(dir_))
      out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
  }
  fs::path dir_;
};

TEST_F(files, WritesAtomicallyAndLeavesNothingBehind) {
  const std::string out = path("profile.toml");
  ASSERT_EQ(write_file_atomically(out, "one\n"), "");
  ASSERT_EQ(write_file_atomically(out, "two\n"), ""); // replaces a regular file
  EXPECT_EQ(read(out), "two\n");
  EXPECT_EQ(names(), std::vector<std::string>{"profile.toml"});
  struct stat st {};
  ASSERT_EQ(stat(out.c_str(), &st), 0);
  const mode_t mask = umask(0);
  umask(mask);
  EXPECT_EQ(st.st_mode & 0777, 0666 & ~mask) << "a profile is readable like any new file";
}

TEST_F(files, AReplacedFileKeepsItsModeAndGroup) {
  const std::string out = write("private.json", "old\n");
  ASSERT_EQ(chmod(out.c_str(), 0600), 0);
  ASSERT_EQ(write_file_atomically(out, "new\n"), "");
  struct stat st {};
  ASSERT_EQ(stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(read(out), "new\n");
  if (geteuid() == 0) { // a group root can give: kept with the group's permissions
    ASSERT_EQ(chown(out.c_str(), 0, 65534), 0);
    ASSERT_EQ(chmod(out.c_str(), 0640), 0);
    ASSERT_EQ(write_file_atomically(out, "newer\n"), "");
    ASSERT_EQ(stat(out.c_str(), &st), 0);
    EXPECT_EQ(st.st_mode & 0777, 0640u);
    EXPECT_EQ(st.st_gid, 65534u);
  }
  EXPECT_EQ(names(), std::vector<std::string>{"private.json"});
}

TEST_F(files, RefusesToReplaceAFileAnotherUserOwns) {
  if (geteuid() != 0) GTEST_SKIP() << "only root can make a file another user owns";
  const std::string theirs = write("theirs.json", "theirs\n");
  ASSERT_EQ(chown(theirs.c_str(), 65534, 65534), 0);
  ASSERT_EQ(chmod(theirs.c_str(), 0600), 0);
  const std::string e = write_file_atomically(theirs, "mine\n");
  EXPECT_NE(e.find("owned by another user (uid 65534); refusing to replace it"), std::string::npos)
      << e;
  EXPECT_EQ(check_output_path(theirs), e) << "said before any work";
  struct stat st {};
  ASSERT_EQ(stat(theirs.c_str(), &st), 0);
  EXPECT_EQ(st.st_uid, 65534u);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(read(theirs), "theirs\n");
  EXPECT_EQ(names(), std::vector<std::string>{"theirs.json"});
}

TEST_F(files, RefusesToReplaceWhatIsNotARegularFile) {
  const std::string fifo = path("fifo"), link = path("link"), victim = write("victim", "keep\n");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  ASSERT_EQ(symlink(victim.c_str(), link.c_str()), 0);
  fs::create_directories(path("dir"));
  struct Case {
    std::string target, words;
  } cases[] = {{"/dev/null", "not a regular file"},
               {fifo, "not a regular file"},
               {link, "is a symbolic link"},
               {path("dir"), "is a directory"},
               {path("dir") + "/", "is a directory"}};
  for (const Case &c : cases) {
    const std::string e = write_file_atomically(c.target, "x\n");
    EXPECT_NE(e.find(c.words), std::string::npos) << c.target << ": " << e;
    EXPECT_EQ(check_output_path(c.target), e);
  }
  struct stat st {};
  ASSERT_EQ(lstat("/dev/null", &st), 0);
  EXPECT_TRUE(S_ISCHR(st.st_mode)) << "/dev/null was replaced";
  ASSERT_EQ(lstat(fifo.c_str(), &st), 0);
  EXPECT_TRUE(S_ISFIFO(st.st_mode));
  ASSERT_EQ(lstat(link.c_str(), &st), 0);
  EXPECT_TRUE(S_ISLNK(st.st_mode));
  EXPECT_EQ(read(victim), "keep\n");
}

TEST_F(files, APlantedLinkAtTheOldTemporaryNameIsNotFollowed) {
  // The temporary used to be "<out>.tmp.<pid>", opened with O_TRUNC: a link there truncated
  // and overwrote the file it pointed to.
  const std::string out = path("out.toml"), victim = write("victim", "keep\n");
  ASSERT_EQ(symlink(victim.c_str(), (out + ".tmp." + std::to_string(getpid())).c_str()), 0);
  ASSERT_EQ(write_file_atomically(out, "new\n"), "");
  EXPECT_EQ(read(victim), "keep\n");
  EXPECT_EQ(read(out), "new\n");
}

TEST_F(files, OutputPathsAreCheckedWholeBeforeAnyWork) {
  const std::string file = write("afile", "");
  EXPECT_EQ(check_output_path(file + "/x.toml"), file + "/x.toml: " + file + " is not a directory");
  EXPECT_NE(check_output_path(path("missing/x.toml")).find("No such file"), std::string::npos);
  EXPECT_NE(check_output_path("").find("not a file name"), std::string::npos);
  EXPECT_EQ(check_output_path(path("new.toml")), "");
  EXPECT_EQ(names(), std::vector<std::string>{"afile"}) << "the probe file is removed";
  if (geteuid() != 0) {
    ASSERT_EQ(chmod(dir_.c_str(), 0500), 0);
    EXPECT_NE(check_output_path(path("new.toml")).find("cannot create a file"), std::string::npos);
    chmod(dir_.c_str(), 0700);
  }
}

TEST_F(files, DebugOutputsDoNotFollowLinksOrTakeOthersFiles) {
  const std::string victim = write("victim", "keep\n");
  const std::string link = path("link.map"), dangling = path("dangling.map");
  ASSERT_EQ(symlink(victim.c_str(), link.c_str()), 0);
  ASSERT_EQ(symlink(path("created-by-link").c_str(), dangling.c_str()), 0);
  for (bool append : {true, false}) {
    std::string error;
    EXPECT_EQ(open_debug_output(link, append, error), -1);
    EXPECT_NE(error.find("symbolic link"), std::string::npos) << error;
    EXPECT_EQ(open_debug_output(dangling, append, error), -1);
  }
  EXPECT_EQ(read(victim), "keep\n");
  EXPECT_FALSE(fs::exists(path("created-by-link")));

  const std::string fifo = path("fifo.map");
  ASSERT_EQ(mkfifo(fifo.c_str(), 0600), 0);
  std::string error;
  EXPECT_EQ(open_debug_output(fifo, true, error), -1) << "and without blocking";

  if (geteuid() == 0) { // a file someone else owns (root can make one)
    const std::string theirs = write("theirs.map", "theirs\n");
    ASSERT_EQ(chown(theirs.c_str(), 65534, 65534), 0);
    EXPECT_EQ(open_debug_output(theirs, true, error), -1);
    EXPECT_NE(error.find("owned by another user"), std::string::npos) << error;
    EXPECT_EQ(read(theirs), "theirs\n");
  }
  // A hard link to one of our own files, planted under the debug file's name.
  const std::string mine = write("mine-elsewhere", "mine\n"), hard = path("hard.map");
  ASSERT_EQ(::link(mine.c_str(), hard.c_str()), 0);
  EXPECT_EQ(open_debug_output(hard, true, error), -1);
  EXPECT_NE(error.find("other hard links"), std::string::npos) << error;
  EXPECT_EQ(read(mine), "mine\n");

  const int fd = open_debug_output(path("mine.map"), true, error);
  EXPECT_GE(fd, 0) << error;
  close(fd);
}

TEST_F(files, PerfMapThroughAPlantedLinkIsRefused) {
  // In a child: /tmp/perf-<pid>.map is named after the process.
  const std::string victim = write("victim", "keep\n");
  EXPECT_EQ(test::in_child([&]() -> std::string {
              const std::string map = "/tmp/perf-" + std::to_string(getpid()) + ".map";
              if (symlink(victim.c_str(), map.c_str()) != 0) return "cannot plant the link";
              setenv("CLEARJIT_PERF_MAP", "1", 1);
              auto code = compile_kernel(*parse_spec("stosb"), host_cpu());
              unlink(map.c_str());
              if (!code) return "generation failed: " + code.error;
              return read(victim) == "keep\n" ? "" : "the link was followed";
            }),
            "");
}

TEST_F(files, DumpIntoAMissingDirectoryIsSaid) {
  const std::string missing = path("no-such-dir");
  EXPECT_EQ(test::in_child([&]() -> std::string {
              setenv("CLEARJIT_DUMP", missing.c_str(), 1);
              testing::internal::CaptureStderr();
              auto code = compile_kernel(*parse_spec("stosb"), host_cpu());
              auto again = compile_kernel(*parse_spec("mov"), host_cpu());
              const std::string said = testing::internal::GetCapturedStderr();
              if (!code || !again) return "generation failed";
              const std::string want =
                  "clearjit: CLEARJIT_DUMP=" + missing + ": not a directory; nothing dumped\n";
              return said == want ? "" : "stderr was '" + said + "', expected once '" + want + "'";
            }),
            "");
  EXPECT_FALSE(fs::exists(missing));
}

TEST_F(files, DumpDoesNotWriteThroughLinks) {
  const std::string victim = write("victim", "keep\n");
  fs::create_directories(path("dump"));
  ASSERT_EQ(symlink(victim.c_str(), path("dump/stosb.bin").c_str()), 0);
  EXPECT_EQ(test::in_child([&]() -> std::string {
              setenv("CLEARJIT_DUMP", path("dump").c_str(), 1);
              testing::internal::CaptureStderr();
              auto code = compile_kernel(*parse_spec("stosb"), host_cpu());
              const std::string said = testing::internal::GetCapturedStderr();
              if (!code) return "generation failed";
              if (said.find("stosb.bin: is a symbolic link; not followed") == std::string::npos)
                return "stderr: " + said;
              return fs::exists(path("dump/stosb.asm")) ? "" : "the .asm beside it is missing";
            }),
            "");
  EXPECT_EQ(read(victim), "keep\n");
}

TEST(files_Env, ClearjitVariablesAreReadLikeSecureGetenv) {
  // In a set-uid process secure_getenv returns NULL; here it is an ordinary read.
  setenv("CLEARJIT_TEST_VARIABLE", "value", 1);
  EXPECT_EQ(clearjit_env("CLEARJIT_TEST_VARIABLE"), "value");
  unsetenv("CLEARJIT_TEST_VARIABLE");
  EXPECT_EQ(clearjit_env("CLEARJIT_TEST_VARIABLE"), "");
}

// The words of every on/off variable; the preload reads them through the same switch_word
// (tests/preload/run.sh checks it there).
TEST(files_EnvSwitch, Words) {
  for (const char *w : {"1", "on", "ON", "On", "yes", "YES", "true", "True", "TRUE"})
    EXPECT_EQ(switch_word(w), 1) << w;
  for (const char *w : {"0", "off", "OFF", "Off", "no", "NO", "false", "False", "FALSE"})
    EXPECT_EQ(switch_word(w), 0) << w;
  for (const char *w : {"", "2", "01", "of", "onn", " on", "on ", "y", "n", "t", "disable", "-1"})
    EXPECT_EQ(switch_word(w), -1) << w;
}

TEST(files_EnvSwitch, ReadsTheVariableAndSaysABadValueOnce) {
  EXPECT_EQ(test::in_child([]() -> std::string {
              const char *name = "CLEARJIT_TEST_SWITCH";
              unsetenv(name);
              if (clearjit_env_switch(name, false) || !clearjit_env_switch(name, true))
                return "unset is not the fallback";
              setenv(name, "", 1);
              if (clearjit_env_switch(name, false)) return "empty is not the fallback";
              setenv(name, "Yes", 1);
              if (!clearjit_env_switch(name, false)) return "Yes is not on";
              setenv(name, "OFF", 1);
              if (clearjit_env_switch(name, true)) return "OFF is not off";
              setenv(name, "maybe", 1);
              testing::internal::CaptureStderr();
              const bool first = clearjit_env_switch(name, false);
              const bool second = clearjit_env_switch(name, true);
              const std::string said = testing::internal::GetCapturedStderr();
              if (first || !second) return "a bad value is not the fallback";
              const std::string want =
                  "clearjit: CLEARJIT_TEST_SWITCH=maybe is not on or off (0/1, "
                  "off/on, no/yes, false/true), taken as off\n";
              return said == want ? "" : "stderr was '" + said + "', expected once '" + want + "'";
            }),
            "");
}

} // namespace
} // namespace cjit::detail
