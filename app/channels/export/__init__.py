"""A conversation written out (issue 17): Markdown, self-contained HTML and JSON documents, and
one message as Markdown (what "Copy" puts on the clipboard).

  markdown.py   one message, and the whole conversation, as Markdown
  html.py       the conversation as one sanitized HTML file (Markdown rendered here, escaped)
  json_doc.py   the conversation as the wire JSON the page receives
  reading.py    the stored messages oldest first, a page at a time; one message by id
  saving.py     the file name offered, and writing a document atomically
"""
