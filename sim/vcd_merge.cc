/*
 * vcd_merge.cc - merging per-unit VCD files (see vcd_merge.h). Reads the four-state value
 * changes Verilator writes: "#T" time stamps, "b<bits> <id>", "r<real> <id>" and
 * "<0|1|x|z><id>" changes, and GTKWave's "s<text> <id>" strings; '$' directives in the
 * value section carry no change of their own.
 */
#include "vcd_merge.h"

#include <cerrno>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>

namespace vtasim {

namespace {

struct reader {
	std::ifstream in;
	std::string suffix;
	uint64_t mul = 1, div = 1;
	bool done = false;
	uint64_t time = 0;              /* of the pending block */
	std::vector<std::string> block; /* its changes, identifiers renamed */
	std::string next;               /* the time stamp line that ends the block */

	/* An identifier code with this input's suffix. */
	std::string rename(const std::string &id) const { return id + suffix; }

	std::string rename_change(const std::string &line) const
	{
		if (strchr("bBrRsS", line[0])) {
			size_t sp = line.find(' ');
			if (sp == std::string::npos)
				return line;
			return line.substr(0, sp + 1) + rename(line.substr(sp + 1));
		}
		return line.substr(0, 1) + rename(line.substr(1));
	}

	/* Read the next block: its "#T" line is in `next`; false at the end. */
	bool advance()
	{
		block.clear();
		if (next.empty()) {
			done = true;
			return false;
		}
		time = std::strtoull(next.c_str() + 1, nullptr, 10) * mul / div;
		next.clear();
		std::string line;
		while (std::getline(in, line)) {
			if (line.empty() || line[0] == '$')
				continue;
			if (line[0] == '#') {
				next = line;
				break;
			}
			block.push_back(rename_change(line));
		}
		return true;
	}
};

/* Copy the definitions of r's file into out under scope `scope`, up to $enddefinitions,
 * and read its first time stamp. */
bool copy_header(reader &r, const std::string &scope, std::ostream &out)
{
	if (!scope.empty())
		out << "$scope module " << scope << " $end\n";
	std::string line;
	bool ended = false;
	while (std::getline(r.in, line)) {
		std::istringstream words(line);
		std::string w;
		words >> w;
		if (w == "$enddefinitions") {
			ended = true;
			break;
		}
		if (w == "$var") {
			/* $var TYPE WIDTH ID NAME... $end */
			std::string type, width, id, rest;
			words >> type >> width >> id;
			std::getline(words, rest);
			out << "$var " << type << ' ' << width << ' ' << r.rename(id) << rest << '\n';
		} else if (w == "$scope" || w == "$upscope") {
			out << line << '\n';
		}
	}
	if (!scope.empty())
		out << "$upscope $end\n";
	if (!ended)
		return false;
	while (std::getline(r.in, line))
		if (!line.empty() && line[0] == '#') {
			r.next = line;
			break;
		}
	return true;
}

} // namespace

vta_status vcd_merge(const std::vector<vcd_input> &inputs, const std::string &out_path,
		     const std::string &comment, vta_error *err)
{
	std::vector<std::unique_ptr<reader>> readers;
	std::ofstream out(out_path, std::ios::trunc);
	if (!out)
		return vta_fail(err, VTA_E_IO, "cannot write the waveform %s: %s", out_path.c_str(),
				std::strerror(errno));
	out << "$version vtasim $end\n"
	    << "$timescale 1ps $end\n"
	    << "$comment " << comment << " $end\n";
	for (const vcd_input &in : inputs) {
		auto r = std::make_unique<reader>();
		r->in.open(in.path);
		if (!r->in)
			continue;
		r->mul = in.time_mul;
		r->div = in.time_div ? in.time_div : 1;
		/* a suffix no other input's codes end with: '!' + index, printable */
		r->suffix = std::string(1, (char)('!' + readers.size()));
		if (!copy_header(*r, in.scope, out))
			return vta_fail(err, VTA_E_IO, "the waveform %s has no definitions",
					in.path.c_str());
		r->advance();
		readers.push_back(std::move(r));
	}
	out << "$enddefinitions $end\n";
	for (;;) {
		reader *first = nullptr;
		for (auto &r : readers)
			if (!r->done && (!first || r->time < first->time))
				first = r.get();
		if (!first)
			break;
		const uint64_t t = first->time;
		out << '#' << t << '\n';
		for (auto &r : readers)
			while (!r->done && r->time == t) {
				for (const std::string &c : r->block)
					out << c << '\n';
				r->advance();
			}
	}
	out.flush();
	if (!out)
		return vta_fail(err, VTA_E_IO, "cannot write the waveform %s", out_path.c_str());
	return VTA_OK;
}

} // namespace vtasim
