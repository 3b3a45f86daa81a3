// A Botzone bot that starts plyd: Botzone compiles bots from one source
// file in the languages it knows (Rust is not one), so this C++ file is
// the bot, and plyd, built for Botzone's machines, waits in the bot's
// storage with its game plugin (docs/protocols.md, "Deploying on
// Botzone"). It copies them to a folder of its own under /tmp ($TMPDIR
// where that is set; there they
// may be executed and mapped, whatever the storage's mount allows) and
// replaces itself with plyd, which then reads the turns on the same
// stdin and answers on the same stdout.
//
// Build flags: Botzone's own for C++. Edit GAME for the bot's game.

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
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
    bool ok = true;
    while ((n = std::fread(buf, 1, sizeof buf, in)) > 0) {
        if (std::fwrite(buf, 1, n, out) != n) {
            ok = false;
            break;
        }
    }
    std::fclose(in);
    if (std::fclose(out) != 0) {
        ok = false;
    }
    if (!ok) {
        std::fprintf(stderr, "launcher: copying %s failed\n", from.c_str());
    }
    return ok;
}

int main() {
    const char *tmp = std::getenv("TMPDIR");
    std::string dir = std::string(tmp != nullptr && *tmp != '\0' ? tmp : "/tmp") + "/plyd-" +
                      std::to_string(getpid());
    if (mkdir(dir.c_str(), 0755) != 0 && errno != EEXIST) {
        std::fprintf(stderr, "launcher: cannot make %s: %s\n", dir.c_str(), std::strerror(errno));
        return 1;
    }
    int found = 0;
    for (const char *file : FILES) {
        std::string from = std::string(STORAGE) + "/" + file;
        if (access(from.c_str(), R_OK) != 0) {
            continue;  // a game plugin this bot does not need may be left out
        }
        if (!copy_file(from, dir + "/" + file)) {
            return 1;
        }
        found++;
    }
    std::string plyd = dir + "/plyd";
    if (found < 2 || chmod(plyd.c_str(), 0755) != 0) {
        std::fprintf(stderr, "launcher: %s needs plyd and a game plugin\n", STORAGE);
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
