"""The licence notices of the english corpus's larger sources (issue 38), appended to its LICENSE.txt.

The WordNet and BSD notices themselves are in corpora_english.LICENSE (the glosses are under the WordNet
licence, the other cookie files under the BSD one, as Debian's copyright files for the packages state).
"""

MORE_LICENSES = """
glosses.txt.gz: the definitions of WordNet 3.0's glosses, extracted from the Debian package wordnet-base
(/usr/share/wordnet/data.*) by explorer/train/corpora_english.py; under the WordNet 3.0 licence above.

fortunes.txt.gz: the cookies of every prose file of BSD fortune(6) in the Debian packages fortunes
(/usr/share/games/fortunes/*, all but ascii-art and translate-me) and fortunes-min (literature, riddles),
cut into sentences, attribution lines dropped; never the held-out "fortunes" file, nor a line holding one
of its cookies. Debian's copyright file for the package (/usr/share/doc/fortunes/copyright) places the
program and its fortune files under the BSD licence of The Regents of the University of California above.

devil.txt.gz: the prose of Ambrose Bierce's "The Devil's Dictionary", extracted from the Debian package
dict-devil (/usr/share/dictd/devil.dict.dz), cut into sentences, the verse dropped. Public domain:

  The Internet Wiretap 1st Online Edition of THE DEVIL'S DICTIONARY by AMBROSE BIERCE
  Copyright 1911 by Albert and Charles Boni, Inc.
  A Public Domain Text, Copyright Expired
  Released April 15 1993
  Entered by Aloysius of &tSftDotIotE, aloysius@west.darkside.com

  (Debian's /usr/share/doc/dict-devil/copyright: "The Devil's Dictionary is in the public domain, its
  copyright has expired.")

austen.txt.gz: the six novels of Jane Austen (Sense and Sensibility, 1811; Pride and Prejudice, 1813;
Mansfield Park, 1814; Emma, 1815; Northanger Abbey and Persuasion, 1817), as the Debian package
r-cran-janeaustenr 1.0.0-1 holds them (plain text, one line of print a row; read with Rscript), cut into sentences and
clauses. The novels are in the public domain; the package (by Julia Silge, Debian packaging by Andreas
Tille) is under the MIT licence:

  Copyright 2016-2017 Julia Silge

  Permission is hereby granted, free of charge, to any person obtaining a copy of this software and
  associated documentation files (the "Software"), to deal in the Software without restriction, including
  without limitation the rights to use, copy, modify, merge, publish, distribute, sublicense, and/or sell
  copies of the Software, and to permit persons to whom the Software is furnished to do so, subject to the
  following conditions: The above copyright notice and this permission notice shall be included in all
  copies or substantial portions of the Software.

  THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND, EXPRESS OR IMPLIED, INCLUDING BUT NOT
  LIMITED TO THE WARRANTIES OF MERCHANTABILITY, FITNESS FOR A PARTICULAR PURPOSE AND NONINFRINGEMENT. IN NO
  EVENT SHALL THE AUTHORS OR COPYRIGHT HOLDERS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY, WHETHER
  IN AN ACTION OF CONTRACT, TORT OR OTHERWISE, ARISING FROM, OUT OF OR IN CONNECTION WITH THE SOFTWARE OR
  THE USE OR OTHER DEALINGS IN THE SOFTWARE.
"""
