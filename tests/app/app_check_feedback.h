// app_check feedback FILE.jsonl --tile K --expect KIND:MISTAKE,...
//   the records of a lesson script that answers each question with likely mistakes and with
//   impossible numbers: each answer recomputed from the keys the record holds; an answer outside
//   what can be (an index past n - 1, a count past n or past the layer's comparators, a walk of 0
//   or more than T tiles, a negative number) called impossible with why, and no other; each mistake
//   the feedback names (its words, as the app writes them) is the number given, recomputed here: a
//   count of comparators, of keys with a digit at other bits, an index counted from 1, ...; an
//   answer that is some mistake has one named; a layer where nothing swaps shows each pair in
//   order; and every KIND:MISTAKE listed was named for some answer. Returns the failures.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

std::vector<std::string> feedbackFailures(const std::string& path, uint64_t tileKeys,
                                          const std::vector<std::string>& expect);
