from latentlab.studies.shape import load_study

register = load_study("tir").register
