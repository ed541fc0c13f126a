package postgres

import (
	"strings"
	"sync"
)

// PostgreSQL has no accent folding of its own without the unaccent
// extension (which needs a superuser to install), so memory search folds
// with translate(): foldFrom's letters become foldTo's, position by
// position. The pairs are every letter of Latin-1 Supplement, Latin
// Extended-A and -B and Latin Extended Additional whose canonical
// decomposition is an ASCII letter and combining marks (é → e, Ş → S,
// ệ → e): what SQLite's FTS5 folds with remove_diacritics. Decompositions
// never change (Unicode's stability policy), and migration 5 is built from
// these strings, so they must not change either: append a migration that
// rebuilds the column to change them.
const (
	foldFrom = "ÀÁÂÃÄÅÇÈÉÊËÌÍÎÏÑÒÓÔÕÖÙÚÛÜÝàáâãäåçèéêëìíî" +
		"ïñòóôõöùúûüýÿĀāĂăĄąĆćĈĉĊċČčĎďĒēĔĕĖėĘęĚěĜ" +
		"ĝĞğĠġĢģĤĥĨĩĪīĬĭĮįİĴĵĶķĹĺĻļĽľŃńŅņŇňŌōŎŏŐő" +
		"ŔŕŖŗŘřŚśŜŝŞşŠšŢţŤťŨũŪūŬŭŮůŰűŲųŴŵŶŷŸŹźŻżŽ" +
		"žƠơƯưǍǎǏǐǑǒǓǔǕǖǗǘǙǚǛǜǞǟǠǡǦǧǨǩǪǫǬǭǰǴǵǸǹǺǻ" +
		"ȀȁȂȃȄȅȆȇȈȉȊȋȌȍȎȏȐȑȒȓȔȕȖȗȘșȚțȞȟȦȧȨȩȪȫȬȭȮȯ" +
		"ȰȱȲȳḀḁḂḃḄḅḆḇḈḉḊḋḌḍḎḏḐḑḒḓḔḕḖḗḘḙḚḛḜḝḞḟḠḡḢḣ" +
		"ḤḥḦḧḨḩḪḫḬḭḮḯḰḱḲḳḴḵḶḷḸḹḺḻḼḽḾḿṀṁṂṃṄṅṆṇṈṉṊṋ" +
		"ṌṍṎṏṐṑṒṓṔṕṖṗṘṙṚṛṜṝṞṟṠṡṢṣṤṥṦṧṨṩṪṫṬṭṮṯṰṱṲṳ" +
		"ṴṵṶṷṸṹṺṻṼṽṾṿẀẁẂẃẄẅẆẇẈẉẊẋẌẍẎẏẐẑẒẓẔẕẖẗẘẙẠạ" +
		"ẢảẤấẦầẨẩẪẫẬậẮắẰằẲẳẴẵẶặẸẹẺẻẼẽẾếỀềỂểỄễỆệỈỉ" +
		"ỊịỌọỎỏỐốỒồỔổỖỗỘộỚớỜờỞởỠỡỢợỤụỦủỨứỪừỬửỮữỰự" +
		"ỲỳỴỵỶỷỸỹ"
	foldTo = "AAAAAACEEEEIIIINOOOOOUUUUYaaaaaaceeeeiii" +
		"inooooouuuuyyAaAaAaCcCcCcCcDdEeEeEeEeEeG" +
		"gGgGgGgHhIiIiIiIiIJjKkLlLlLlNnNnNnOoOoOo" +
		"RrRrRrSsSsSsSsTtTtUuUuUuUuUuUuWwYyYZzZzZ" +
		"zOoUuAaIiOoUuUuUuUuUuAaAaGgKkOoOojGgNnAa" +
		"AaAaEeEeIiIiOoOoRrRrUuUuSsTtHhAaEeOoOoOo" +
		"OoYyAaBbBbBbCcDdDdDdDdDdEeEeEeEeEeFfGgHh" +
		"HhHhHhHhIiIiKkKkKkLlLlLlLlMmMmMmNnNnNnNn" +
		"OoOoOoOoPpPpRrRrRrRrSsSsSsSsSsTtTtTtTtUu" +
		"UuUuUuUuVvVvWwWwWwWwWwXxXxYyZzZzZzhtwyAa" +
		"AaAaAaAaAaAaAaAaAaAaAaEeEeEeEeEeEeEeEeIi" +
		"IiOoOoOoOoOoOoOoOoOoOoOoOoUuUuUuUuUuUuUu" +
		"YyYyYyYy"
)

// foldMap maps each letter of foldFrom to its letter of foldTo.
var foldMap = sync.OnceValue(func() map[rune]rune {
	from, to := []rune(foldFrom), []rune(foldTo)
	m := make(map[rune]rune, len(from))
	for i, r := range from {
		m[r] = to[i]
	}
	return m
})

// foldDiacritics folds s as the search column does (foldFrom → foldTo).
func foldDiacritics(s string) string {
	m := foldMap()
	return strings.Map(func(r rune) rune {
		if f, ok := m[r]; ok {
			return f
		}
		return r
	}, s)
}
