"""The markers of the past that history cues are made of (`cues.py` decides, by the structure of a
message, which of them count): patterns by their grammar, not whole phrases, English and Chinese.

- a past time: an episodic one that names earlier work ("last time", "back then", "in an older
  session", "in another chat", 上次, 当初, 当时, 那次, 另一个对话), a time only before now ("previously",
  "originally", clause-final "before", 之前/以前 as "previously", 之前那个, 先前), or a calendar one ("two
  weeks ago", "yesterday", "last sprint", 上周, 前几天, 去年); a unit of work before this one ("the
  previous service", 上一个项目); a weekday or month ("on friday", "in march") only in a clause told in the
  past; what something came to, in a question ("what did we go with in the end", 最后定的是…？);
- a reuse by comparison ("same as before", "like we agreed", "as discussed", 跟上次一样, 老规矩);
- something agreed, asked or remembered: "what did we decide", "our decision", "what was the
  verdict", "did I say", "do you recall", "remind me" (not "remind me to"), "I forget what", "what
  was it again", remember / recall with an object in a question; 说好的, 约定, 讨论过, 还记得, 记不记得,
  回忆, 来着, 我们最后怎么定的？;
- a past state of the conversation, asked: what the speakers own, in the past ("what was our reasoning
  for", "what were my instructions", "our plan was what?"), what a deliberation gave ("what was the
  reason behind", "the workaround for"), earlier work they own ("our earlier work on"); what a person
  decided, said or asked for as the thing a question asks for (我跟你交代的是什么？ 我们定的方案是哪个？), and
  the past-focus 是…的 of what we did (我们是怎么处理的);
- a person of the conversation with a verb in the past ("we landed on", "you showed me", "I told
  you", "the query we wrote", 我们改过, 你给我写的那个).

How each kind counts in a message (a told past event as context, a pointer at the screen, a person's
past verb licensed by a question or a definite thing …) is `cues._Window.counts`; this module holds no
decision.
"""

from __future__ import annotations

import re

WH = r"(?:how|why|where|which|what|when|who)"
_US = r"(?:we|the two of us|both of us|you and i)"  # the speakers together
# the experiential aspect 过, not the 过 of 过期 (expire), 过滤 (filter), 过来, 过一会 (in a while) …
GUO = "过(?![期滤程度去来后渡多于年]|一会|一下)"
# Verbs of deciding, choosing, agreeing and saying: about the conversation, not its topic (stripped).
_FRAME_BASE = (
    r"(?:decide|agree|choose|pick|settle|conclude|land|go|come up|end up|opt|say|tell|ask|want|prefer|mention"
    r"|discuss|talk|suggest|recommend|insist|request|specify|plan|propose|standardi[sz]e|warn|promise|advise)"
)
FRAME_PAST = (
    r"(?:decided|agreed|chose|chosen|picked|settled|concluded|landed|went|gone|came up|ended up|opted|said|told"
    r"|asked|wanted|preferred|mentioned|discussed|talked|suggested|recommended|insisted|requested|specified"
    r"|planned|proposed|standardi[sz]ed|warned|promised|advised)(?: (?:on|with|for|about|to))?"
)
# Any verb in the past: a regular -ed form (not need, feed, proceed …) or a common irregular one.
ANY_PAST = (
    r"(?:(?!(?:n|f|s|proc|exc|succ|emb)eed\b)[a-z]{2,}ed|went|came|made|took|got|ran|found|wrote|set|put|kept"
    r"|left|built|gave|saw|thought|brought|began|broke|hit|switched|knew|sent|spent|held|moved|dropped|had|did"
    r"|showed|shown|told|said|chose|done|written|taken|given)"
)
# what a deliberation or an instruction gives: asked in the past, it is asked about then
PRODUCT = (
    r"(?:reason|reasoning|rationale|justification|motivation|argument|instruction|guidance|guideline|advice|rule"
    r"|recommendation|suggestion|preference|criterion|criteria|convention|workaround|fix|solution|approach|idea"
    r"|finding|explanation|answer|conclusion)"
)
_ADVERB = r"(?:\w+ly|once|already|also|all|both|even|first|then|never)"
_TIME_UNIT = r"(?:days?|weeks?|months?|years?|sprints?|quarters?|hours?|time|while)"
_CAL_UNIT = r"(?:day|week|month|year|sprint|quarter|night)"
_WEEKDAY = r"(?:monday|tuesday|wednesday|thursday|friday|saturday|sunday)"
_MONTH = r"(?:january|february|march|april|june|july|august|september|october|november|december)"

_EN_REUSE = [  # a reuse by comparison: a reference to earlier work, never a told event
    r"same (?:as|way as) (?:before|last time|earlier|we did)",
    r"(?:just )?(?:like|as) (?:before|last time|earlier|we did)",
    rf"(?:just )?(?:like|as) (?:we|you|u|i) (?:{FRAME_PAST}|did|had)",
    r"as (?:discussed|agreed|planned|decided|mentioned)",
]
_EN_TIME = [  # an episodic past time that names earlier work: a marker of it by itself
    r"last (?:time|session|chat|conversation)",
    r"(?:last|previous|prior|earlier|past)(?: (?:few|two|three|couple of))? (?:sessions|conversations|chats)",
    r"that time",
    r"at the time",
    r"the other (?:day|week)",
    r"earlier (?:session|conversation|discussion|chat)",
    # a session other than this one ("in an older session", "in another chat"; not "the other session holds
    # the lock", "another thread": a database session, a thread of the program)
    r"(?:an?|the|our|my|some|one|that|those) (?:older|old|earlier|previous|prior|past) (?:sessions?|conversations?"
    r"|chats?)",
    r"(?:an?|the|some|one|that) (?:other|different|separate) (?:conversations?|chats?)",
    r"another (?:conversation|chat)",
    r"(?:a|the|our|that|an|in the|your|my) (?:previous|prior) (?:session|time|conversation|discussion|chat|project"
    r"|service|repo|repository|app|codebase)",
    r"a (?:while|few days|few weeks|couple (?:of )?weeks) (?:ago|back)",
    # earlier work the speakers own ("our earlier work on the scraper", "my previous project"), not a turn of
    # this conversation ("my previous message", "your last answer")
    r"(?:our|my|your) (?:earlier|previous|prior) (?!(?:message|comment|reply|answer|response|turn|prompt|question"
    r"|step|command|output|line|edit|change|commit)s?\b)[\w-]+",
    r"back (?:then|when|in)",
    r"where (?:we|you|i) (?:left off|stopped)",
]
# a time only before now: earlier work, or earlier in this conversation ("the error I showed you previously",
# "the output from before"): against a pointer at the screen or this session (`_HERE`) it is the latter
_EN_RELATIVE = [
    r"previously",
    r"originally",
    r"once (?:already|before)",
    # clause-final "before" / "earlier" (at a sentence end, or before "but", "so" … opening the next clause: "we
    # set it up earlier but I can't recall how"), not "…, not before." nor "now or before" (whole words: "this
    # error before?" is a cue, its "or" is the end of "error")
    r"(?<!\bnot\x20)(?<!\bor\x20)(?<!\band\x20)(?<!\bnever\x20)(?:before|earlier)"
    r"(?=\s*(?:[.?!,;:)]|$)|\s+(?:but|so|yet|though|although)\b)",
    r"earlier(?= (?:we|i|you)\b)",  # "Earlier I told you …", not "earlier than noon"
    # the past habitual ("the snapshot used to fail"), as 以前会…; not "is used to", "I'm used to", nor the participle
    # of a clause whose verb comes later ("the function used to parse dates is slow")
    r"(?<!\bis\x20)(?<!\bare\x20)(?<!\bbe\x20)(?<!\bbeen\x20)(?<!\bget\x20)(?<!\bgot\x20)(?<!'m\x20)(?<!\bam\x20)"
    r"(?<!\bwas\x20)(?<!\bwere\x20)used to(?= [a-z]+\b(?![^.?!,;:\n]{0,200}?\b(?:is|are|was|were|does|do|did|has"
    r"|have|can|will|would|should|seems?|looks?|takes?|needs?)\b))",
]
_EN_CALENDAR = [  # a calendar time: dates earlier work, or (as an attribute: "last month's") data
    rf"last (?:{_CAL_UNIT}s?|{_WEEKDAY})(?!\s+of\b)",
    rf"(?:a|an|one|two|three|four|five|six|a few|a couple of|some|several|long|\d+) ?{_TIME_UNIT}? ago",
    r"yesterday",
    r"(?:earlier|last) this (?:week|month|year|sprint)",
]
# only in a clause told in the past: a weekday or month; in a question, what something came to in the end
_EN_DATED = [rf"(?:on|last) {_WEEKDAY}", rf"in {_MONTH}", r"at (?:some|one) point"]  # "at some point we wrote …"
_OUTCOME = [rf"{WH}\b(?P<held>[^.?!\n]{{0,80}}?)\b(?:in the end|eventually|ultimately)"]  # not "did it finally pass?"
_ZH_OUTCOME = [r"最后(?![一那这个的几])", r"最终", r"后来"]  # not 最后那个测试, 最后一行 (the last …)
_EN_ASKED = [  # a question about what was decided or said then, or a decision named as a thing
    rf"{WH} (?:did|do|have) we (?:decide|agree|choose|pick|settle|conclude)\w*(?: on)?",
    rf"(?:did|didn't|did not|had) (?:i|you|u) {_FRAME_BASE}\w*(?: (?:on|with|for|about))?",
    r"our (?:earlier |previous |last )?(?:discussion|decision|conversation|chat|agreement|conclusion|choice)s?",
    # a question about what a past deliberation came to ("what was the verdict on …")
    rf"{WH} (?:was|were) (?:the|our) (?:final )?(?:decision|verdict|conclusion|outcome|consensus|plan"
    r"|agreement|resolution|takeaway)s?",
]
# The speakers together deliberated ("I think we talked about it", "we discussed this", "we talked it through", "we
# had a long chat about it"): 讨论过, 聊过. Counted as `cues._Window.counts` says (not as the setting of a request).
_EN_DELIBERATED = [
    rf"{_US}(?: (?:already|previously|once|have|had|'ve|'d))* (?:discussed|talked (?:(?:it|this|that|them) )?"
    r"(?:about|through|over)|went over|had (?:a|an|the|that|this|some)(?: [\w-]+)? (?:conversation|discussion|chat"
    r"|talk|debate|back-and-forth)s?)",
]
# Not remembering, said ("I can't recall the command we used", 步骤我忘了, 我记不清了; before a question word the
# question itself is the cue: "I forget what we picked"), not a thing left undone ("I forgot to", 我忘了把模块加进去):
# counted as `cues._Window.counts` says (of shared work, not of general knowledge).
_EN_FORGOT = [
    r"(?:i|we)(?: (?:just|really|honestly|still))? (?:can't|cannot|can not|couldn't|don't|do not|no longer)"
    rf" (?:remember|recall)(?! (?:to|{WH}|whether|if)\b)",
    rf"i (?:forget|(?:have|'ve) forgotten)(?! (?:to|{WH}|whether|if)\b)",
]
_EN_FORGOT_WH = [rf"(?:forget|forgot|forgotten)(?: \w+){{0,2}}? (?={WH}\b|whether\b|if\b)"]  # "I forget what we …"
# A person of the conversation with a verb of deciding or saying in the past ("we landed on", "I told
# you"): counted as `cues._Window.counts` says.
_EN_PERSON = [
    rf"(?:we|i|you|u)(?: (?:already|previously|once|all|both|just|finally|eventually|had|have))* {FRAME_PAST}",
]
_EN_QUESTIONS = [  # ask about earlier work without naming when
    # a question word, then a past auxiliary with "we" in the same clause: "which format did we pick";
    # "were we" only before a verb in -ing, a plan or a past activity ("were we going to", "what were we
    # doing"), not "where were we"
    rf"{WH}(?: [\w'-]+){{0,4}} (?:(?:did|had) {_US}|were we(?= (?:\w+ing|supposed|meant)\b))",
    rf"{WH}'d {_US}",  # "how'd we end up handling it"
    # "didn't we" presumes earlier work; "did we" asks about it only before a verb of deciding or saying
    # ("did we settle on", "did we ever"): "Did we break something?" is about the work at hand (a person
    # with a past verb, `_EN_PERSON_QUESTIONS`)
    r"(?:didn't|didnt|did not|hadn't|had not) we",
    rf"(?:did|had) we(?= (?:{_FRAME_BASE}|ever|already)\b)",
    r"(?:were|weren't) we(?= (?:\w+ing|supposed|meant)\b)",
    r"(?:were|weren't) you(?= (?:going|planning|supposed|meant)\b)",  # a plan told earlier
    r"(?:have|haven't) we (?:ever|already)",
    # a question about something done already: "has the crash been dealt with already?" (bounded: a
    # pasted log of "was never …" lines must not cost a scan to its end per position)
    r"(?:has|have|had|did|didn't|was|were|wasn't|weren't|hasn't|haven't|hadn't) (?P<held>[^.?!\n]{0,80}?)\balready"
    r"(?=[^.?!\n]{0,200}\?)",
    r"(?:do|can|could|did) (?:you|u) (?:remember|recall)",
    rf"(?:remember|recall|recap)(?: \w+){{0,2}}? (?={WH}\b|whether\b|if\b)",
    r"refresh my memory",
    r"(?:tell|remind) (?:me|us) again",  # repeat what was told before; not "try again"
    r"remind me(?! to\b)",  # not "remind me to update the docs": a task to come
    # "what was it again?"
    rf"{WH}\b(?P<held>[^.?!\n]{{0,120}}?)\bagain(?=\s*\?)",
    # a question in the past about what the speakers own ("what was our reasoning for", "what were my
    # instructions for", "our plan for it was what?"), or about what a deliberation gave ("what was the
    # reason behind", "the workaround for"): a past state of the conversation, not of the code
    rf"{WH} (?:was|were) (?:our|my|your|ur)",
    rf"(?:our|my|your)(?P<held>(?: [\w'-]+){{1,6}}?) (?:was|were) {WH}",
    rf"{WH} (?:was|were) the (?P<held>{PRODUCT}s?)",
]
# A person with any verb in the past ("the fix we shipped", "you showed me"; the verb stays, it may be
# the topic), and "did we" / "had we" before any other verb: counted as `_EN_PERSON` is.
_EN_PERSON_QUESTIONS = [
    rf"(?:we|you|u|i)(?: (?:who|that))?(?:'ve|'d| have| had)?(?: {_ADVERB})? (?P<held>{ANY_PAST}|been)",
    r"(?:did|had) we",
]
_ZH_CHANGE = (
    "(?:解决|修|搞定|改|换|调|关|去掉|移除|升级|降级|回滚|禁用|停用|启用|替换|重构|重写|拆|合并|加|定|选|弃用|废弃|绕)"
)
_ZH_NOW = "现在|目前|如今"  # a present anchor (cueclauses.PRESENT's Chinese)
# verbs of doing (做, 写, 处理) or of changing: what "like we did" compares with
_ZH_DOING = rf"(?:做|弄|搞|写|处理|实现|用|设|配|建|搭|部署|迁移|{_ZH_CHANGE})"
_ZH_REUSE = [
    r"[跟和像同与](?:之前|以前|上次|上回)(?:一样|那样)",
    r"老(?:办法|规矩|做法|方法|一套|样子)",
    r"照旧",
    # like what a person did (像你处理缩略图那样, 跟我们做订单表的一样), as "like we did": a verb of doing after the
    # person, not of thinking, expecting, describing or saying (跟你想的一样, 和我们预期的一样, 和你说的一样: what is
    # said here), nor a contrast (跟我们做的不一样). The verb takes its object, the thing done then; a bare verb
    # before 的 is a state of now as much (跟你用的一样, 跟你配的一样吗？), and so is a present anchor
    # (和我们现在做的一样)
    rf"(?:[跟和像同与]|照着?)(?:我们|咱们|咱俩|咱(?![们俩])|你)(?![们])(?:(?!的|{_ZH_NOW})[^，。？！,.?!；]){{0,4}}?"
    rf"{_ZH_DOING}(?!的)(?:(?!{_ZH_NOW})[^，。？！,.?!；]){{1,12}}?(?<!不)(?:一样|那样)",
]
_ZH = [
    "上一个服务",
    "上一个项目",
    "上一个仓库",
    "上一个应用",
    "上次",
    "上回",
    "那次",
    "以往",
]
_ZH_ASKED = ["还记得", "决定过", "讨论过"]
_ZH_EARLIER = "|".join(
    [
        *_ZH,
        "上一次",
        "当[时初]",
        "那(?:时|会儿)",
        "之前",
        "以前",
        "先前",
        "曾经",
        "前几天",
        "上个?(?:周|月|星期)",
        "昨天",
        "去年",
    ]
)
# 时 beginning a word of its own: 当时间 and 那时间戳 are 当 + 时间 and 那 + 时间戳, not 当时 / 那时
_SHI_WORD = "(?![间钟区长速序段])"
_ZH_TIME = [
    # 上一次 as "last time", not "the previous commit / command / reply" (上一次提交, as "our previous commit")
    r"上一次(?!的?(?:提交|修改|改动|命令|运行|输出|回复|回答|编辑|commit))",
    # an episodic past time: back then, that time, originally, the old way
    rf"当(?:初|时{_SHI_WORD})",
    rf"那(?:时候|时{_SHI_WORD}|会儿)",
    r"早些时候",
    r"最近一次",
    r"最(?:开始|早|初)(?=[^，。？！,.?!；]{0,12}的时候)",
    # a conversation other than this one (另一个对话, 之前的会话, 别的聊天; not 另一个会话, a database session)
    r"(?:另一个|另外一个|别的|其他|其它|之前的|以前的|上一个|老的?)(?:对话|聊天)|(?:之前的|以前的|上一个)会话",
]
# 之前 / 以前 / 先前 …: before now, earlier work or earlier in this conversation (as `_EN_RELATIVE`)
_ZH_RELATIVE = [
    r"先前|此前|早先|曾经",
    # 之前/以前 as "previously": at a clause start, after a subject or a comparison (我们之前, 跟之前), or
    # before a verb of saying, deciding or choosing (日志之前说好), or a demonstrative (之前那个); never as
    # "部署之前" (before deploying) nor "watch 之前" (before watch), nor inside 以前缀 (by the prefix)
    r"(?:(?:^|(?<=[，。？！、；：,.?!;:(（\n])|(?<=[，。？！、；：,.?!;:] ))|(?<=[跟和像同与按照如们我你俩]))"
    # ... and not an intention dated then (之前一直想弄: "had long wanted to", nothing was done)
    r"(?:之前|以前)(?:一样|那样)?(?!缀|(?:就|也|都)?(?:一直|总|老)?(?:想|打算|准备|计划|希望))",
    r"(?:之前|以前|原来|原先|本来)(?=不是|说|定|讨论|提|聊|选|决定|商量|约|是什么|是怎么|是哪|那|的那)",
    rf"(?:之前|以前)(?=[^，。？！,.?!；\s]{{0,4}}{GUO})",  # 以前有过, 之前遇到过: "previously"
]
_ZH_CALENDAR = [
    r"上(?:个)?(?:周|月|星期|礼拜|迭代|季度|sprint)",
    r"前(?:几天|阵子|段时间|些天|些日子|两天|几周)",
    # N units ago (几周前, 两个月以前), not a year (2020 年以前)
    r"(?<![\d年])(?:[几两三四五六七八九十]+|\d{1,2}) ?个?(?:天|周|星期|礼拜|月|年|小时)(?:之|以)?前(?!缀)",
    r"昨天|去年",
]
# verbs of deciding, saying and asking for; the question words of 是…的 and of "is which"
_ZH_SAID = "(?:定|说|选|决定|商量|讨论|约|聊|交代|要求|吩咐|嘱咐|规定|敲定|确定|建议|推荐|答应|提)"
_ZH_WH = "(?:怎么|如何|为什么|为啥|什么|啥|哪|多少|几|咋)"
# a thing used or set by the speakers together: chosen (我们用的那个方案, 我们给 redis 设的过期策略)
_ZH_USED = "(?:用|采用|选用|使用|设|设置|配|配置)"
_ZH_ASKED_PATTERNS = [
    # agreed, settled (说好的, 商量好, 约好, 约定)
    r"(?:说|商量|约|定)好(?:了|的)",
    # ... told of the speakers before what was agreed (我们说好叫什么？ 咱们约好用哪个？; not 说好听, 定好闹钟)
    r"(?:我们|咱们|咱俩|咱(?![们俩]))(?:之前|以前|当时|当初|已经|不是)?(?:说|商量|约)好(?![听看话])",
    r"约定|定过|聊过",
    # remembering: 我记得, 记得…吗, 回忆一下, and the particle 来着 ("what was it again")
    # 我记得 only of what the speakers did, of a time of earlier work or in a question (我记得我们约好了…, 我记得上次
    # 已经…; not 我记得都转义过了, about the code: "I thought I escaped everything")
    rf"你还?记得|我还?记得(?=[^，。？！,.?!；]*?(?:我们|咱们|咱俩|咱(?![们俩])|你|[？?吗]|{_ZH_EARLIER}))|记不记得|(?:有|没有|有没有)印象"
    r"|印象中",
    # what a person decided, said or asked for, asked about: with the past-focus 是…的 (我们最后怎么定的？
    # 你当时是怎么说的？), or as the thing a question asks for (我跟你交代的是什么？ 我们定的方案是哪个？)
    rf"(?:我们|咱们|咱俩|咱(?![们俩])|你|我)(?P<held>[^，。？！,.?!；\s]{{0,10}}?){_ZH_SAID}的"
    rf"(?=\s*(?:[？?吗呢]|$)|[^，。？！,.?!；]{{0,12}}?是(?:{_ZH_WH}|[^，。？！,.?!；]{{1,20}}?还是))",
    # ... or what the speakers together said, asked to be confirmed (咱们说的是先灰度再全量吧？ as "we said X, right?");
    # not 你说的是这个函数吧 ("you mean this function?") nor 我们说的是同一个函数吧 (what is talked about now)
    rf"(?:我们|咱们|咱俩|咱(?![们俩]))(?P<held>[^，。？！,.?!；\s]{{0,10}}?){_ZH_SAID}的"
    r"(?=是(?!同一|这)[^，。？！,.?!；]{1,30}?[吧吗]\s*(?:[？?]|$))",
    # ... and what the speakers together used, as the thing a question asks for (导出我们用的时区是哪个？ as "which time
    # zone did we use?"; not 我们现在用的是…, 我们用的这个库…, the work at hand, nor 你用的, what the agent ran)
    rf"(?:我们|咱们|咱俩|咱(?![们俩]))(?P<held>(?:(?!现在|目前|这)[^，。？！,.?!；]){{0,12}}?){_ZH_USED}的(?!这)"
    rf"(?=哪|什么|啥|[^，。？！,.?!；]{{0,12}}?(?:是(?:{_ZH_WH}|[^，。？！,.?!；]{{1,20}}?还是)|叫(?:什么|啥)))",
    # the past-focus 是…的 of what we did ("我们是怎么处理的", 咱们当时是为什么改的)
    rf"(?:我们|咱们|咱俩|咱(?![们俩]))[^，。？！,.?!；\s]{{0,4}}?是(?P<held>{_ZH_WH}[^，。？！,.?!；]{{1,12}}?)的(?![^，。？！,.?!；\s])",
    r"记得(?P<held>[^。！？!?]{0,20})吗",
    r"回(?:忆|想)",
    r"来着",
    # remind me (提醒我一下; not 提醒我明天交报告, "remind me to")
    rf"提醒(?:我|一下|我一下)(?=\s*(?:[，。？！,.?!；：:]|$)|[^，。？！,.?!；]{{0,6}}?{_ZH_WH})",
    r"再(?:跟|给|和)我(?:说|讲)(?:一遍|一下|一次)",  # tell me again
    # "didn't you say …?", said as 你不是说…吗 (a rhetorical negative question presumes the saying)
    r"(?:你|我们|咱们|咱俩|咱(?![们俩]))不是(?:说|讲|答应|提)(?=[^，。？！]{0,30}[吗么])",
    # "didn't we already …?" (咱们不是已经有结论了吗), as "didn't we"; not 不是已经在 main 上了吗 (where we are now)
    r"(?:我们|咱们|咱俩|咱(?![们俩]))不是(?:已经|早就)(?!在)(?=[^，。？！]{0,30}[吗么])",
    # how far the speakers got with a piece of work (登录重构那块我们做到哪一步了？), as "where did we leave off"
    r"(?:我们|咱们|咱俩|咱(?![们俩]))(?P<held>[^，。？！,.?!；]{0,8}?)(?:做|弄|搞|改|写|进行)到(?:哪|什么地步|什么程度)",
    # our conclusion, decision (我们的结论; "our conclusion" in English)
    # (我们决定 without 的 is the verb "we decided": a person's past verb, below)
    # ... also of a thing (咱们对 e2e 不稳定的结论, as "our conclusions about the flaky e2e suite")
    r"(?:我们|咱们|咱俩|咱(?![们俩]))(?:(?:对|关于)[^，。？！,.?!；]{1,16}?)?(?:的(?:结论|决定|约定|共识|讨论结果)|(?:结论|共识|讨论结果))",
    # what the speakers did, asked with a question word after the verb's experiential 过 (咱们改过哪些接口？):
    # "what did we ever change"; not after 了, an aspect of the work at hand too (我们改了哪些文件？ git status 看看)
    r"(?:我们|咱们|咱俩|咱(?![们俩]))俩?(?P<held>[^，。？！,.?!；\s]{1,8}?)过(?=什么|啥|哪些|哪个|哪几|多少)",
    # why did we choose (我们为什么选择 …): the reason for a decision
    r"(?:我们|咱们|咱俩|咱(?![们俩]))(?:当时|当初|之前|以前)?(?:为什么|为啥)(?:要|会)?(?:选|定|决定|改用|放弃)",
]
# what the speakers' investigation found, asked: a verb of finding out with its result, then 了 and a question
# word (我们查出了什么？ 咱们发现了哪些原因？), as "what did we find out?"; a finding, unlike the work itself after 了
# (我们改了哪些文件？, the work at hand). Counted as `cues._Window.counts` says (the speakers its subject). Also
# what they decided (咱们定了什么规则？ as "what rules did we settle on?"), or set a thing to (我们把超时改成了多少？
# as "what did we set the timeout to?")
_ZH_FOUND_WH = r"(?=\s*(?:什么|啥|哪些|哪个|哪几|哪种|多少|几))"
_ZH_FOUND = [
    r"(?:(?:查|找|分析|总结|研究|测|讨论|商量|排查|定位|调查|对比|比较)(?:出|到)|发现|得出|确认|确定|(?:弄|搞|查|摸)(?:清楚?|明白)"
    rf"|(?<![一确肯规])定|决定|商定|约定|敲定|选定?)了{_ZH_FOUND_WH}",
    rf"把(?P<held>[^，。？！,.?!；]{{1,16}}?)(?:改|调|设|定|换|升|降|配)(?:成|为|到)了{_ZH_FOUND_WH}",
    # ... or what a deliberation gave, asked after any verb (我们给消费者加了什么重试策略？ as "what retry policy did
    # we add?"; not 我们改了哪些文件？, 传了什么参数？: the things of the work at hand)
    r"(?<=[\u4e00-\u9fff])了\s*(?:什么|啥|哪些|哪个|哪种|哪几种)(?=[^，。？！,.?!；]{0,6}?"
    r"(?:策略|方案|规则|规范|约定|标准|办法|做法|思路|结论|原因|理由|解法|建议|流程|取舍))",
]
# Why or how a thing was changed or mended, asked without a person ("Why was the timeout bumped?", "How was the flaky
# test fixed?"; 这个问题是怎么解决的？ 并发数为什么被调成 4 了？): the reason for a past decision or the way of a past
# repair, not how a thing works now ("How is it computed?", 这个函数是怎么实现的？) nor a thing just gone ("Why was
# the file deleted?"). Counted as `cues._Window.counts` says (a question, not against the screen).
_EN_CHANGE = (
    r"(?:changed|bumped|raised|lowered|increased|reduced|decreased|switched|swapped(?: out)?|replaced|moved|renamed"
    r"|removed|dropped|disabled|enabled|turned (?:off|on)|pinned|unpinned|downgraded|upgraded|reverted|rolled back"
    r"|rewritten|refactored|deprecated|fixed|solved|resolved|worked around|set up|configured|split|merged|added"
    r"|introduced|chosen|picked|capped|limited|tuned)"
)
_EN_CHANGED = [
    rf"(?:why|how)(?: exactly)? (?:was|were|has|have|had) (?P<held>(?:[\w'./-]+ ){{1,6}}?(?:been )?{_EN_CHANGE})",
    # ... or whether it ever was ("did the leak in the exporter ever get resolved?", the experiential 过 of English;
    # not "has this function ever been called?", what the code does)
    rf"(?:did|has|have|had|was|were) (?P<held>(?:[\w'./-]+ ){{1,6}}?)ever (?:get |got |been )?{_EN_CHANGE}",
]
_ZH_WHY = "(?:怎么|如何|为什么|为啥|因为什么|因为啥|咋)"
_ZH_CHANGED = [
    # the past focus 是…的 (是怎么解决的, 是因为什么被关掉的) or the passive 被…了 (为什么被调成 4 了), at a clause end
    rf"是{_ZH_WHY}(?P<held>(?:(?!会|要|能)[^，。？！,.?!；]){{0,6}}?{_ZH_CHANGE}[^，。？！,.?!；的]{{0,6}}?)的"
    r"(?=\s*(?:[？?吗呢]|$|[，。,；;]))",
    rf"{_ZH_WHY}(?P<held>(?:(?!会|要|能)[^，。？！,.?!；]){{0,6}}?被[^，。？！,.?!；]{{0,8}}?{_ZH_CHANGE}"
    r"[^，。？！,.?!；了的]{0,8}?)(?:了|的)(?=\s*(?:[？?吗呢]|$|[，。,；;]))",
]
_ZH_FORGOT = [  # as `_EN_FORGOT`
    rf"(?:(?<![别要])我?忘(?:了|记了)|记不(?:清|太清|得)了?|想不起(?:来)?了?)(?=\s*(?:[，。？！,.?!；]|$)"
    rf"|[^，。？！,.?!；]{{0,4}}?(?:{_ZH_WH}|我们|咱们|你))",
]
# A first- or second-person clause with the experiential aspect 过 (我们改过, 我以前交代过), not the 过 of
# a word (通过 via, 超过 exceed, 跳过 skip, 过期 expire, 过一会 in a while …), or a relative clause before
# a demonstrative (你给我写的那个): counted as `_EN_PERSON` is.
_ZH_PERSON = [
    rf"(?:我们|咱们|咱俩|咱(?![们俩])|我|你)(?P<held>[^，。？！,.?!；\s]{{0,10}}?)(?<![通超经不越跳错路放难度滤]){GUO}",
    # (the thing may hold a word of code: 你给 NAS 做的那个脚本)
    r"(?:我们|咱们|咱俩|咱(?![们俩])|你)(?P<held>[^，。？！,.?!；\s](?:[^，。？！,.?!；\s]| (?! )){0,13}?)的"
    r"(?=那|[^，。？！,.?!；]{1,16}?(?:(?:找|翻|调|拿)(?:出来|回来)|(?:做|弄|搞|改|写)完))",
    # ... or of a thing taken up again (继续我们没做完的重构, 回到我们做了一半的改造)
    r"(?<=继续|接着|回到)(?:做|弄|搞)?(?:我们|咱们|咱俩|咱(?![们俩]))(?P<held>(?:(?!现在|目前|这)[^，。？！,.?!；\s]){1,10}?)的",
    # the speakers decided, as "we decided" (我们决定用哪个框架跑？ counts; 我们决定用 pyarrow，帮我改一下 is the
    # setting)
    r"(?:我们|咱们|咱俩|咱(?![们俩]))(?:当时|当初|之前|以前|最后|已经)?决定",
]


def _en(pattern: str) -> str:
    return r"\b(?:" + pattern.replace(" ", r"\s+") + r")\b"


def _compiled(patterns: list[str], english: bool) -> list[re.Pattern[str]]:
    return [re.compile(_en(p), re.I) if english else re.compile(p) for p in patterns]


_ZH_WORDS = re.compile("|".join(re.escape(c) for c in _ZH))
_ZH_ASKED_WORDS = re.compile("|".join(re.escape(c) for c in _ZH_ASKED))
# (patterns, strong, kind): a strong cue names a time or a decision and is preferred as the name. How
# each kind counts is `cues._Window.counts`.
KINDS: list[tuple[list[re.Pattern[str]], bool, str]] = [
    ([*_compiled(_EN_REUSE, True), *_compiled(_ZH_REUSE, False)], True, "reuse"),
    ([*_compiled(_EN_TIME, True), _ZH_WORDS, *_compiled(_ZH_TIME, False)], True, "time"),
    ([*_compiled(_EN_RELATIVE, True), *_compiled(_ZH_RELATIVE, False)], True, "relative"),
    ([*_compiled(_EN_CALENDAR, True), *_compiled(_ZH_CALENDAR, False)], True, "calendar"),
    (_compiled(_EN_DATED, True), True, "dated"),
    ([*_compiled(_OUTCOME, True), *_compiled(_ZH_OUTCOME, False)], True, "outcome"),
    ([*_compiled(_EN_ASKED, True), _ZH_ASKED_WORDS, *_compiled(_ZH_ASKED_PATTERNS, False)], True, "asked"),
    (_compiled(_EN_DELIBERATED, True), True, "deliberated"),
    ([*_compiled(_EN_FORGOT, True), *_compiled(_ZH_FORGOT, False)], True, "forgot"),
    ([*_compiled(_EN_PERSON, True), *_compiled(_ZH_PERSON, False)], True, "person"),
    # remember or recall as a verb with its object ("recall the fix …?"), not "remember to", "the recall of"
    (
        _compiled([rf"(?:remember|recall)(?= (?:the|that|this|those|our|my|your|we|you|anything|{WH})\b)"], True),
        False,
        "memory",
    ),
    (_compiled(_EN_QUESTIONS, True), False, "asked"),
    (_compiled(_EN_FORGOT_WH, True), False, "forgot"),
    (_compiled(_EN_PERSON_QUESTIONS, True), False, "person"),
    (_compiled(_ZH_FOUND, False), False, "found"),
    ([*_compiled(_EN_CHANGED, True), *_compiled(_ZH_CHANGED, False)], False, "changed"),
]
MARKED_KINDS = (
    "reuse",
    "time",
    "relative",
    "calendar",
    "dated",
    "outcome",
    "asked",
    "deliberated",
    "forgot",
    "memory",
    "found",
    "changed",
)
