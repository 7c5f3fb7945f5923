#!/usr/bin/env python3
"""Builds upstream_verdicts.jsonl for tests/cel/checker_test.cc from celoracle.

  celoracle gen -seed 20261209 -n 2000 > inputs.jsonl
  celoracle eval < inputs.jsonl > eval.jsonl
  celoracle refs < inputs.jsonl > refs.jsonl
  make_verdicts.py inputs.jsonl eval.jsonl upstream_verdicts.jsonl refs.jsonl

One line per input: the expression, the checker's verdict ("ok", or the
compile error kind of celoracle's table), the first issue as "L:C: message"
(the whole detail for the output type check), and, when upstream's checker
accepted it, the uniquely resolved overload ids and the functions left with
several candidates. Errors of program planning (constant folding,
"instantiation:*") happen after the checker accepted: they count as "ok".
"""
import json
import re
import sys

ISSUE = re.compile(r'^(compilation failed: )?ERROR: <input>:(\d+:\d+): ')


def main(inputs_path, eval_path, out_path, refs_path=None):
    evals = {}
    for line in open(eval_path):
        d = json.loads(line)
        evals[d['id']] = d
    refs = {}
    if refs_path:
        for line in open(refs_path):
            d = json.loads(line)
            refs[d['id']] = d
    with open(out_path, 'w') as out:
        for line in open(inputs_path):
            inp = json.loads(line)
            d = evals[inp['id']]
            rec = {'expression': inp['expression']}
            if d.get('compile') == 'ok':
                rec['verdict'] = 'ok'
            elif d.get('compile') == 'error':
                kind = d['compile_error_kind']
                if kind.startswith('instantiation:'):
                    rec['verdict'] = 'ok'
                else:
                    rec['verdict'] = kind
                    msg = d['compile_error']
                    m = ISSUE.match(msg)
                    if m:
                        rec['issue'] = m.group(2) + ': ' + msg[m.end():].split('\n')[0]
                    else:
                        rec['issue'] = msg.split('\n')[0]
            else:
                continue  # input_error: nothing to compare
            r = refs.get(inp['id'])
            if r and not r.get('error') and rec['verdict'] in ('ok', 'result_type'):
                rec['overloads'] = r.get('overloads', [])
                if r.get('ambiguous'):
                    rec['ambiguous'] = r['ambiguous']
            out.write(json.dumps(rec, ensure_ascii=False, separators=(',', ':')) + '\n')


if __name__ == '__main__':
    main(*sys.argv[1:])
