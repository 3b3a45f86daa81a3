#!/usr/bin/env bash
# Build the outside programs plyd's client matches drive (docs/protocols.md,
# "Real clients"), each from its own source, none of them part of plyd:
#
#   tests/tools/build_clients.sh SRC [NAME...]
#
# SRC holds a checkout of each program under these folder names (clone or
# copy them there first; the owner/name of each public repository is given):
#
#   cutegames        kz04px/cutegames          (Cute Games, a UGI match runner)
#   edax-reversi     abulmo/edax-reversi       (Edax: GTP and NBoard; put its
#                                               data/eval.dat from its release
#                                               archive beside bin/)
#   eleeye           xqbase/eleeye             (ElephantEye, UCCI)
#   Fairy-Stockfish  fairy-stockfish/Fairy-Stockfish (UCCI after `ucci`)
#   amazing-amazons  RizzoHou/amazing-amazons  (a Botzone Amazons bot)
#   reversi-bot      CraKane/Reservi_Game_For_Botzone (a Botzone Reversi bot)
#   zzmazon          Starry-debug-czz/The-Bot-of-Amazons (Botzone Amazons:
#                                               UCT with evaluated roll-outs)
#   duyaomega        duyaOmega/Amazon-Bot-SimpleUI (Botzone Amazons: PVS)
#   drizmiz          drizmiz/Game-of-the-Amazons (Botzone Amazons: bitboard PVS)
#   wr786            wr786/Amazing-Amazons-Botzone-Bot (Botzone Amazons: UCT)
#   ntest            weltyc/ntest              (NTest: Othello with trained
#                                               coefficients, NBoard's `x` mode)
#
# NAME picks some of them (default: every folder present). Each build
# prints the binary the match tools take. Build dependencies, Debian names:
# g++, make, cmake, libboost-dev, libboost-filesystem-dev,
# libboost-iostreams-dev (Cute Games; its cmake also fetches the libraries
# it names, so it needs the network or their sources).
set -euo pipefail
src=${1:?usage: build_clients.sh SRC [NAME...]}
shift
names=("$@")
[ ${#names[@]} -gt 0 ] || names=(cutegames edax-reversi eleeye Fairy-Stockfish amazing-amazons reversi-bot
    zzmazon duyaomega drizmiz wr786 ntest)
jobs=$(nproc 2>/dev/null || echo 2)
built=()
for name in "${names[@]}"; do
    dir="$src/$name"
    if [ ! -d "$dir" ]; then
        echo "skip $name: no $dir" >&2
        continue
    fi
    echo "== $name" >&2
    case "$name" in
    ntest)
        # It reads its coefficients and solver positions from its working
        # folder. Its cmake means to link them beside the binary, but some
        # cmake versions pass the glob unexpanded (a link named `*`), so
        # they are linked here one by one.
        cmake -S "$dir/src" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release >&2
        cmake --build "$dir/build" -j"$jobs" --target ntest >&2
        rm -f "$dir/build/*"
        for entry in "$dir"/src/resource/*; do
            ln -sfn "../src/resource/$(basename "$entry")" "$dir/build/$(basename "$entry")"
        done
        built+=("ntest: $dir/build/ntest x (run from $dir/build)")
        ;;
    cutegames)
        cmake -S "$dir" -B "$dir/build" -DCMAKE_BUILD_TYPE=Release >&2
        cmake --build "$dir/build" -j"$jobs" --target cutegames >&2
        built+=("cutegames: $dir/build/cutegames")
        ;;
    edax-reversi)
        mkdir -p "$dir/bin"
        (cd "$dir/src" && make build ARCH=x86-64-v3 COMP=gcc OS=linux -j"$jobs" >&2)
        [ -f "$dir/data/eval.dat" ] || echo "edax: $dir/data/eval.dat is missing (from its release archive)" >&2
        built+=("edax: $dir/bin/lEdax-x86-64-v3 (run from $dir)")
        ;;
    eleeye)
        (cd "$dir/eleeye" && g++ -DNDEBUG -O3 -o eleeye ../base/pipe.cpp ucci.cpp pregen.cpp \
            position.cpp genmoves.cpp hash.cpp book.cpp movesort.cpp preeval.cpp evaluate.cpp \
            search.cpp eleeye.cpp)
        # ElephantEye looks for its opening book beside itself.
        cp "$dir/BOOK/BOOK.DAT" "$dir/eleeye/"
        built+=("eleeye: $dir/eleeye/eleeye")
        ;;
    Fairy-Stockfish)
        (cd "$dir/src" && make -j"$jobs" build ARCH=x86-64-modern largeboards=yes >&2)
        built+=("fairy-stockfish: $dir/src/stockfish")
        ;;
    amazing-amazons)
        g++ -O2 -std=c++11 -o "$dir/bot003-local" "$dir/bots/bot003.cpp"
        built+=("botzone amazons bot: $dir/bot003-local")
        ;;
    reversi-bot)
        g++ -O2 -o "$dir/reversi-bot" "$dir/reservi.cpp"
        built+=("botzone reversi bot: $dir/reversi-bot")
        ;;
    zzmazon)
        g++ -O2 -o "$dir/zzmazon-bot" "$dir/ZZmazon_botzonePK/ZZmazonBot.cpp"
        built+=("botzone amazons bot: $dir/zzmazon-bot")
        ;;
    duyaomega)
        g++ -O2 -o "$dir/duyaomega-bot" "$dir/amazon-PVS_ver.cpp"
        built+=("botzone amazons bot: $dir/duyaomega-bot")
        ;;
    drizmiz)
        # _BOTZONE_ONLINE selects its Botzone main(); its headers call
        # memset without including <cstring>.
        g++ -O2 -std=c++17 -D_BOTZONE_ONLINE -include cstring -o "$dir/drizmiz-bot" \
            "$dir/Amazons_recover/Amazons_recover.cpp"
        built+=("botzone amazons bot: $dir/drizmiz-bot")
        ;;
    wr786)
        g++ -O2 -o "$dir/wr786-bot" "$dir/bot.cpp"
        built+=("botzone amazons bot: $dir/wr786-bot")
        ;;
    *)
        echo "unknown program '$name'" >&2
        exit 2
        ;;
    esac
done
printf '%s\n' "${built[@]}"
