"""Mention types (NAME, NOMINAL, PRONOUN): heads from parse bits or dependencies, the closed word
lists, and the rules that type a mention from whatever annotation its document has."""
