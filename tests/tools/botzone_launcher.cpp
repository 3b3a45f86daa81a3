// A Botzone bot that starts plyd: Botzone compiles bots from one source
// file in the languages it knows (Rust is not one), so this C++ file is
// the bot, and plyd, built for Botzone's machines, waits in the bot's
// storage with its game plugin (docs/protocols.md, "Deploying on
// Botzone"). It copies them to one folder under /tmp ($TMPDIR where that
// is set; there they may be executed and mapped, whatever the storage's
// mount allows), reused by the bot's later starts while the storage's
// files are the same, and replaces itself with plyd, which then reads the
// turns on the same stdin and answers on the same stdout.
//
// Build flags: Botzone's own for C++. Edit GAME for the bot's game.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <string>
#include <sys/stat.h>
#include <unistd.h>

static const char *GAME = "amazons8";  // or "othello" (Botzone's Reversi)
static const char *STORAGE = "data";   // Botzone's path to the bot's storage
static const char *FILES[] = {"plyd", "libplyd_game_amazons.so", "libplyd_game_othello.so"};

// Copy `from` to `to`; false (with a line on stderr) on failure.
static bool copy_file(const std::string &from, const std::string &to) {
    FILE *in = std::fopen(from.c_str(), "rb");
    if (in == nullptr) {
        std::fprintf(stderr, "launcher: cannot open %s: %s\n", from.c_str(), std::strerror(errno));
        return false;
    }
    FILE *out = std::fopen(to.c_str(), "wb");
    if (out == nullptr) {
        std::fprintf(stderr, "launcher: cannot write %s: %s\n", to.c_str(), std::strerror(errno));
        std::fclose(in);
        return false;
    }
    char buf[1 << 16];
    size_t n;
    int error = 0;
    while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) {
        if (std::fwrite(buf, 1, n, out) != n) {
            error = errno;
            break;
        }
    }
    if (error == 0 && std::ferror(in)) {
        error = errno;
    }
    std::fclose(in);
    if (std::fclose(out) != 0 && error == 0) {
        error = errno;
    }
    if (error != 0) {
        std::fprintf(stderr, "launcher: copying %s to %s failed: %s\n", from.c_str(), to.c_str(),
                     std::strerror(error));
    }
    return error == 0;
}

// The whole of a small file, or "" where it cannot be read.
static std::string read_small(const std::string &path) {
    std::string text;
    FILE *in = std::fopen(path.c_str(), "rb");
    if (in == nullptr) {
        return text;
    }
    char buf[4096];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) {
        text.append(buf, n);
    }
    std::fclose(in);
    return text;
}

// Remove a folder of plain files (files a running plyd has mapped stay
// valid to it: they go when it ends).
static void remove_folder(const std::string &dir) {
    DIR *d = opendir(dir.c_str());
    if (d == nullptr) {
        return;
    }
    while (struct dirent *entry = readdir(d)) {
        if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0) {
            unlink((dir + "/" + entry->d_name).c_str());
        }
    }
    closedir(d);
    rmdir(dir.c_str());
}

// Whether `dir` is a folder of this user's that no one else may write:
// only then is what it holds what this bot put there (in a temporary
// folder shared with other users, anyone may make a folder of any name).
static bool own_folder(const std::string &dir) {
    struct stat st;
    return lstat(dir.c_str(), &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == getuid() &&
           (st.st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

int main() {
    const char *tmp = std::getenv("TMPDIR");
    std::string base = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp");
    std::string dir = base + "/plyd-botzone-" + std::to_string(getuid());
    // What the storage holds: each file's name, size and time. A folder
    // whose stamp says the same was copied from these files already.
    std::string stamp;
    int found = 0;
    for (const char *file : FILES) {
        struct stat st;
        if (stat((std::string(STORAGE) + "/" + file).c_str(), &st) != 0) {
            continue;  // a game plugin this bot does not need may be left out
        }
        stamp += std::string(file) + " " + std::to_string(st.st_size) + " " +
                 std::to_string(st.st_mtime) + "\n";
        found++;
    }
    if (found < 2 || stamp.compare(0, 5, "plyd ") != 0) {
        std::fprintf(stderr, "launcher: %s needs plyd and a game plugin\n", STORAGE);
        return 1;
    }
    if (!own_folder(dir) || read_small(dir + "/stamp") != stamp) {
        // Copied afresh into a folder this process makes (a name already
        // taken, by anyone, is passed over), then put in place of the old
        // one in one rename.
        std::string fresh;
        for (int k = 0;; k++) {
            fresh = dir + "." + std::to_string(getpid()) + "." + std::to_string(k);
            if (mkdir(fresh.c_str(), 0700) == 0) {
                break;
            }
            if (errno != EEXIST || k == 100) {
                std::fprintf(stderr, "launcher: cannot make %s: %s\n", fresh.c_str(),
                             std::strerror(errno));
                return 1;
            }
        }
        // A copy that fails (a full $TMPDIR) is removed, not left behind
        // at every start.
        for (const char *file : FILES) {
            std::string from = std::string(STORAGE) + "/" + file;
            if (access(from.c_str(), R_OK) == 0 && !copy_file(from, fresh + "/" + file)) {
                remove_folder(fresh);
                return 1;
            }
        }
        FILE *out = std::fopen((fresh + "/stamp").c_str(), "wb");
        bool written = out != nullptr && std::fputs(stamp.c_str(), out) >= 0;
        if (out != nullptr && std::fclose(out) != 0) {
            written = false;
        }
        if (!written) {
            std::fprintf(stderr, "launcher: cannot write the stamp in %s: %s\n", fresh.c_str(),
                         std::strerror(errno));
            remove_folder(fresh);
            return 1;
        }
        std::string old = fresh + ".old";
        bool had_old = own_folder(dir) && rename(dir.c_str(), old.c_str()) == 0;
        if (rename(fresh.c_str(), dir.c_str()) != 0 || !own_folder(dir)) {
            // Another start put its copy there first, or the name is
            // someone else's: this one runs from its own.
            dir = fresh;
        }
        if (had_old) {
            remove_folder(old);
        }
    }
    std::string plyd = dir + "/plyd";
    if (chmod(plyd.c_str(), 0755) != 0) {
        std::fprintf(stderr, "launcher: cannot make %s executable: %s\n", plyd.c_str(),
                     std::strerror(errno));
        return 1;
    }
    std::string game = std::string("--game=") + GAME;
    std::string plugins = "--plugin-path=" + dir;
    char *args[] = {const_cast<char *>(plyd.c_str()), const_cast<char *>("--protocol=botzone"),
                    const_cast<char *>(game.c_str()), const_cast<char *>(plugins.c_str()),
                    nullptr};
    execv(plyd.c_str(), args);
    std::fprintf(stderr, "launcher: cannot start %s: %s\n", plyd.c_str(), std::strerror(errno));
    return 1;
}
